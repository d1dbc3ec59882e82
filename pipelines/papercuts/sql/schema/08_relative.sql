-- Published rQPS: only the ratio is known, never the QPS behind it.
CREATE TABLE relative (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    server VARCHAR NOT NULL REFERENCES servers (id),
    threads INTEGER NOT NULL CHECK (threads >= 1),
    base_build VARCHAR NOT NULL REFERENCES builds (id),
    base_config VARCHAR NOT NULL REFERENCES configs (id),
    build VARCHAR NOT NULL REFERENCES builds (id),
    config VARCHAR NOT NULL REFERENCES configs (id),
    microbenchmark VARCHAR NOT NULL REFERENCES microbenchmarks (name),
    "range" INTEGER,
    rqps DOUBLE NOT NULL CHECK (rqps > 0),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
