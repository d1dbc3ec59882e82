-- Published summary statistics of rQPS per group, as printed by the source.
CREATE TABLE summaries (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    server VARCHAR NOT NULL REFERENCES servers (id),
    threads INTEGER NOT NULL CHECK (threads >= 1),
    base_build VARCHAR NOT NULL REFERENCES builds (id),
    base_config VARCHAR NOT NULL REFERENCES configs (id),
    build VARCHAR NOT NULL REFERENCES builds (id),
    config VARCHAR NOT NULL REFERENCES configs (id),
    "group" VARCHAR NOT NULL CHECK ("group" IN ('point', 'range', 'write')),
    min DOUBLE NOT NULL CHECK (min > 0),
    max DOUBLE NOT NULL CHECK (max >= min),
    avg DOUBLE NOT NULL CHECK (avg BETWEEN min AND max),
    median DOUBLE NOT NULL CHECK (median BETWEEN min AND max),
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
