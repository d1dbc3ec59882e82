-- The builds one server's ladders leave out (derive/ladders.py), ladder by ladder: each beside the
-- build kept at its version (one_per_version), or with none where its campaign names it
-- comparison_only.
SELECT o.ladder, o.version, o.build || '.' || o.config AS variant, o.reason,
       o.kept_build || '.' || o.kept_config AS kept
FROM ladder_left_out o JOIN ladders l ON l.ladder = o.ladder
WHERE l.server = $server
ORDER BY o.ladder, o.rowid;
