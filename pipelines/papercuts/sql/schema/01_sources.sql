CREATE TABLE sources (
    id VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL,
    author VARCHAR NOT NULL,
    date DATE,
    publication VARCHAR,
    url VARCHAR,
    notes VARCHAR
);
