-- Each published qps.rel ratio of a mytools archive beside the one derived from its qps.abs
-- table as mytools computes it (printed QPS divided, 2 decimals): validate/archive.py.
-- status: equal (same at 2 decimals), rounding (QPS that print as these can give the published
-- ratio), differs, or 'no abs value'.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE reproductions (
    campaign VARCHAR NOT NULL,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL,
    "column" INTEGER NOT NULL,
    abs_file VARCHAR NOT NULL,
    abs_line INTEGER,
    threads INTEGER NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    base VARCHAR NOT NULL,
    variant VARCHAR NOT NULL,
    published DOUBLE NOT NULL,
    derived DOUBLE,
    status VARCHAR NOT NULL CHECK (status IN ('equal', 'rounding', 'differs', 'no abs value'))
);
