-- Every raw output a campaign's layout expects, and what became of it: parsed, or a gap
-- (missing, empty, truncated, a counter the machine could not count or that gives no per-query
-- value) shown on the campaign page.
CREATE TABLE raw_files (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    file VARCHAR NOT NULL,
    tool VARCHAR NOT NULL,
    status VARCHAR NOT NULL CHECK (status IN ('parsed', 'missing', 'empty', 'truncated', 'not supported',
                                              'not counted', 'not used')),
    detail VARCHAR
);
