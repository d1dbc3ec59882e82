-- version_key is the parsed version (papercuts.versions): order by it, never by the string.
CREATE TABLE builds (
    id VARCHAR PRIMARY KEY,
    dbms VARCHAR NOT NULL,
    engine VARCHAR NOT NULL,
    version VARCHAR NOT NULL,
    version_key INTEGER[] NOT NULL,
    compiler VARCHAR,
    flags VARCHAR,
    git_hash VARCHAR,
    notes VARCHAR,
    source VARCHAR NOT NULL REFERENCES sources (id)
);
