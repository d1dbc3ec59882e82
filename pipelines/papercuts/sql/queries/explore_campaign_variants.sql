-- Which variants each campaign of each server holds (base variants of published ratios included).
-- The whole site's, by server first (render/explore.py reads it once per process).
SELECT DISTINCT server, campaign, build || '.' || config AS variant FROM server_variants
ORDER BY server, campaign, variant;
