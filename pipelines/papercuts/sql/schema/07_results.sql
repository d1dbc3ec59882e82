-- Measured throughput, long format; qps is in the microbenchmark's unit.
CREATE TABLE results (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    server VARCHAR NOT NULL REFERENCES servers (id),
    build VARCHAR NOT NULL REFERENCES builds (id),
    config VARCHAR NOT NULL REFERENCES configs (id),
    microbenchmark VARCHAR NOT NULL REFERENCES microbenchmarks (name),
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
