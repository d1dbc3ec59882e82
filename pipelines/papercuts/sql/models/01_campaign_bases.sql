-- The base variant of each measured campaign, server and DBMS engine: the one named in
-- campaign.toml, else the oldest build of that DBMS and engine (by parsed version, never by
-- string) with its first config by id. InnoDB is thus compared with InnoDB, MyRocks with MyRocks.
CREATE TABLE campaign_bases AS
WITH variants AS (  -- the results' variants first, then their builds: joined to every result before
                    -- the DISTINCT, 0.08 s on derive's one core at its start (x100), so 0.02
    SELECT r.campaign, r.server, b.dbms, b.engine, r.build, r.config, b.version_key
    FROM (SELECT DISTINCT campaign, server, build, config FROM results) r JOIN builds b ON b.id = r.build
), oldest AS (
    SELECT *, row_number() OVER (PARTITION BY campaign, server, dbms, engine
                                 ORDER BY version_key, build, config) AS rank
    FROM variants
)
SELECT o.campaign, o.server, o.dbms, o.engine,
       coalesce(c.base_build, o.build) AS base_build,
       coalesce(c.base_config, o.config) AS base_config
FROM oldest o JOIN campaigns c ON c.id = o.campaign
WHERE o.rank = 1
ORDER BY o.campaign, o.server, o.dbms, o.engine;  -- an order of the values alone, whatever the plan (ingest/previous.py)
