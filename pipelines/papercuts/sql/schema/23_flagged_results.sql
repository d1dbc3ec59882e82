-- Results papercuts check warns of: a QPS 10x from the median of the other builds' for the same
-- campaign, server, DBMS, microbenchmark and thread count (validate/plausibility.py). Published
-- as they are; the changes they make are marked on the ladder pages and the regressions index.
CREATE TABLE flagged_results (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    threads INTEGER NOT NULL,
    qps DOUBLE NOT NULL,
    median DOUBLE NOT NULL,
    others INTEGER NOT NULL,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
