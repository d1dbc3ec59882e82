-- The builds (or build.config variants) each campaign keeps off its version ladders (campaign.toml
-- comparison_only; derive/ladders.py).
SELECT id, comparison_only FROM campaigns WHERE comparison_only IS NOT NULL ORDER BY id;
