-- Which variants each campaign of one server holds (base variants of published ratios included).
SELECT DISTINCT campaign, build || '.' || config AS variant FROM server_variants WHERE server = $server
ORDER BY campaign, variant;
