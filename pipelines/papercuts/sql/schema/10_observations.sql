-- Other published measurements (timings, counters, profile shares) with their units.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE observations (
    campaign VARCHAR NOT NULL,
    measure VARCHAR NOT NULL,
    subject VARCHAR NOT NULL,
    x_label VARCHAR,
    x DOUBLE,
    value DOUBLE NOT NULL,
    value_text VARCHAR NOT NULL, -- as printed, so 7.150 stays 7.150
    unit VARCHAR NOT NULL,
    server VARCHAR,
    note VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
