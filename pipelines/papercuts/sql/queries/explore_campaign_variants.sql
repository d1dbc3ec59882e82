-- Which variants each campaign of one server holds (base variants of published ratios included).
SELECT DISTINCT campaign, build || '.' || config AS variant FROM measured_qps WHERE server = $server
UNION SELECT DISTINCT campaign, build || '.' || config FROM relative WHERE server = $server
UNION SELECT DISTINCT campaign, base_build || '.' || base_config FROM relative WHERE server = $server
ORDER BY campaign, variant;
