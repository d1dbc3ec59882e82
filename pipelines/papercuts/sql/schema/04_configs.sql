CREATE TABLE configs (
    id VARCHAR PRIMARY KEY,
    settings VARCHAR,
    notes VARCHAR,
    source VARCHAR NOT NULL REFERENCES sources (id)
);
