CREATE TABLE microbenchmarks (
    name VARCHAR PRIMARY KEY,
    "group" VARCHAR NOT NULL CHECK ("group" IN ('point', 'range', 'write', 'other')),
    group4 VARCHAR CHECK (group4 IN ('point', 'range-noagg', 'range-agg', 'write')),
    unit VARCHAR NOT NULL,
    description VARCHAR NOT NULL,
    source VARCHAR NOT NULL REFERENCES sources (id)
);
