-- Published summary statistics of rQPS per group, as printed by the source.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE summaries (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    base_build VARCHAR NOT NULL,
    base_config VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    "group" VARCHAR NOT NULL CHECK ("group" IN ('point', 'range', 'write')),
    min DOUBLE NOT NULL CHECK (min > 0),
    max DOUBLE NOT NULL CHECK (max >= min),
    avg DOUBLE NOT NULL CHECK (avg BETWEEN min AND max),
    median DOUBLE NOT NULL CHECK (median BETWEEN min AND max),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
