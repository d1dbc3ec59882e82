-- perf stat counters per query, from the raw outputs of a campaign (load_raw.py): a counter over
-- its block's elapsed seconds, divided by the test's QPS. IPC is instructions / cycles of one block.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE counters (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    repetition INTEGER,
    metric VARCHAR NOT NULL,
    value DOUBLE NOT NULL CHECK (value >= 0),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
