-- The builds one server's ladders leave out (derive/ladders.py one_per_version), ladder by ladder,
-- each beside the build kept at its version.
SELECT o.ladder, o.version, o.build || '.' || o.config AS variant, o.kept_build || '.' || o.kept_config AS kept
FROM ladder_left_out o JOIN ladders l ON l.ladder = o.ladder
WHERE l.server = $server
ORDER BY o.ladder, o.rowid;
