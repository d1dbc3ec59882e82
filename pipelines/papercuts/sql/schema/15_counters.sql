-- perf stat counters per query, from the raw outputs of a campaign (load_raw.py): a counter over
-- its block's elapsed seconds, divided by the test's QPS. IPC is instructions / cycles of one block.
CREATE TABLE counters (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    server VARCHAR NOT NULL REFERENCES servers (id),
    build VARCHAR NOT NULL REFERENCES builds (id),
    config VARCHAR NOT NULL REFERENCES configs (id),
    microbenchmark VARCHAR NOT NULL REFERENCES microbenchmarks (name),
    "range" INTEGER,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    repetition INTEGER,
    metric VARCHAR NOT NULL,
    value DOUBLE NOT NULL CHECK (value >= 0),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
