-- Every raw output a campaign's layout expects, and what became of it: parsed, or a gap
-- (missing, empty, truncated, a counter the machine could not count or that gives no per-query
-- value) shown on the campaign page.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE raw_files (
    campaign VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    tool VARCHAR NOT NULL,
    status VARCHAR NOT NULL CHECK (status IN ('parsed', 'missing', 'empty', 'truncated', 'not supported',
                                              'not counted', 'not used')),
    detail VARCHAR
);
