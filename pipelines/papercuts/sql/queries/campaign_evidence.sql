-- Every file of one campaign as committed, in name order: published byte for byte.
SELECT name, bytes FROM evidence WHERE campaign = $campaign ORDER BY name;
