CREATE TABLE campaigns (
    id VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL,
    source VARCHAR NOT NULL REFERENCES sources (id),
    contributor VARCHAR NOT NULL,
    date DATE NOT NULL,
    sysbench VARCHAR NOT NULL,
    tables INTEGER,
    rows_per_table BIGINT,
    duration_read_s INTEGER,
    duration_write_s INTEGER,
    base_build VARCHAR REFERENCES builds (id),
    base_config VARCHAR REFERENCES configs (id),
    notes VARCHAR,
    server VARCHAR REFERENCES servers (id),  -- raw campaigns: where the raw outputs were made
    raw_layout VARCHAR,
    readme VARCHAR,  -- raw/README.md of a raw campaign, shown on its page
    comparison_only VARCHAR[],  -- builds or build.config variants kept off its version ladders
    file VARCHAR NOT NULL
);
