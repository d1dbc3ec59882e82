-- Published rQPS: only the ratio is known, never the QPS behind it.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE relative (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    base_build VARCHAR NOT NULL,
    base_config VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    rqps DOUBLE NOT NULL CHECK (rqps > 0),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
