-- Measured throughput, long format; qps is in the microbenchmark's unit. Its references (campaign,
-- server, build, config, microbenchmark) are checked once over the loaded table
-- (sql/checks/results_references.sql): as REFERENCES, DuckDB looked each up as a row was inserted,
-- 2.2 s of 3.5 s for 10^6 results.
CREATE TABLE results (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    threads INTEGER NOT NULL CHECK (threads >= 1),
    repetition INTEGER,
    qps DOUBLE NOT NULL CHECK (qps > 0),
    tps DOUBLE CHECK (tps > 0),
    latency_avg_ms DOUBLE CHECK (latency_avg_ms > 0),
    latency_p95_ms DOUBLE CHECK (latency_p95_ms > 0),
    cpu_per_op DOUBLE CHECK (cpu_per_op >= 0),
    cs_per_op DOUBLE CHECK (cs_per_op >= 0),
    rkb_per_op DOUBLE CHECK (rkb_per_op >= 0),
    wkb_per_op DOUBLE CHECK (wkb_per_op >= 0),
    r_per_op DOUBLE CHECK (r_per_op >= 0),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
