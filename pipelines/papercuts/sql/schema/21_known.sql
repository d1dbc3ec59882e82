-- Known regressions (data/known/<id>.toml, validate/known.py): where a change arrived, what it
-- hits, why, its bugs and status. Change points that match are labelled, not announced as new.
CREATE TABLE known (
    id VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL,
    status VARCHAR NOT NULL CHECK (status IN ('open', 'explained', 'fixed')),
    source VARCHAR NOT NULL REFERENCES sources (id),
    dbms VARCHAR NOT NULL,
    introduced VARCHAR NOT NULL,
    introduced_key INTEGER[] NOT NULL,
    explanation VARCHAR NOT NULL,
    microbenchmarks VARCHAR[],
    groups VARCHAR[],
    servers VARCHAR[],
    bugs VARCHAR[],
    investigation VARCHAR
);
