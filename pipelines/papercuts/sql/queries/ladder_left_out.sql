-- The builds every server's ladders leave out (derive/ladders.py), ladder by ladder: each beside the
-- build kept at its version (one_per_version), or with none where its campaign names it
-- comparison_only. The whole site's (a few rows), looked up by server (render/site_rows.py).
SELECT l.server, o.ladder, o.version, o.build || '.' || o.config AS variant, o.reason,
       o.kept_build || '.' || o.kept_config AS kept
FROM ladder_left_out o JOIN ladders l ON l.ladder = o.ladder
ORDER BY o.ladder, o.rowid;
