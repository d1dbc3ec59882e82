-- The base variant of each measured campaign and server: the one named in campaign.toml,
-- else the oldest build (by parsed version, never by string) and its first config by id.
CREATE TABLE campaign_bases AS
WITH variants AS (
    SELECT DISTINCT r.campaign, r.server, r.build, r.config, b.version_key
    FROM results r JOIN builds b ON b.id = r.build
), oldest AS (
    SELECT campaign, server, build, config,
           row_number() OVER (PARTITION BY campaign, server
                              ORDER BY version_key, build, config) AS rank
    FROM variants
)
SELECT o.campaign, o.server,
       coalesce(c.base_build, o.build) AS base_build,
       coalesce(c.base_config, o.config) AS base_config
FROM oldest o JOIN campaigns c ON c.id = o.campaign
WHERE o.rank = 1;
