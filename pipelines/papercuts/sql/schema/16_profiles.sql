-- Sampled profiles of raw campaigns: one per variant, microbenchmark, range parameter and thread
-- count (random-points at range 10, 100 and 1000 are three profiles; range is NULL where the
-- layout names none). Folded stacks keep every sampled call chain (root first); perf report rows
-- keep what perf printed (self and children percent per symbol), for profiles without folded
-- stacks. Ranges can be NULL, so the key is UNIQUE (no PRIMARY KEY) and joins use IS NOT DISTINCT FROM.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE profiles (
    campaign VARCHAR NOT NULL,
    server VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER CHECK ("range" >= 0),
    threads INTEGER NOT NULL CHECK (threads >= 1),
    source VARCHAR NOT NULL CHECK (source IN ('folded', 'perf report')),
    event VARCHAR,
    file VARCHAR NOT NULL,
    UNIQUE (campaign, build, config, microbenchmark, "range", threads, source)
);

CREATE TABLE profile_stacks (
    campaign VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    threads INTEGER NOT NULL,
    frames VARCHAR[] NOT NULL,
    weight DOUBLE NOT NULL CHECK (weight > 0),
    line INTEGER NOT NULL
);

CREATE TABLE profile_report (
    campaign VARCHAR NOT NULL,
    build VARCHAR NOT NULL,
    config VARCHAR NOT NULL,
    microbenchmark VARCHAR NOT NULL,
    "range" INTEGER,
    threads INTEGER NOT NULL,
    sample INTEGER,  -- mytools' numbered report (.1 ... .15); percentages are weighted by its events
    symbol VARCHAR NOT NULL,
    dso VARCHAR,
    self_pct DOUBLE NOT NULL,
    children_pct DOUBLE,
    line INTEGER NOT NULL
);
