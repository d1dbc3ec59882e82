-- The builds and configs an investigation compares, with what distinguishes them.
SELECT 'build' AS kind, id, dbms || ' ' || engine || ' ' || version AS what,
       concat_ws(' ', compiler, flags) AS how, notes, version_key
FROM builds WHERE list_contains($builds, id)
UNION ALL
SELECT 'config' AS kind, id, coalesce(settings, '') AS what, '' AS how, notes, NULL AS version_key
FROM configs WHERE list_contains($configs, id)
ORDER BY kind, version_key, id;
