-- Other published measurements (timings, counters, profile shares) with their units.
CREATE TABLE observations (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    measure VARCHAR NOT NULL,
    subject VARCHAR NOT NULL,
    x_label VARCHAR,
    x DOUBLE,
    value DOUBLE NOT NULL,
    value_text VARCHAR NOT NULL, -- as printed, so 7.150 stays 7.150
    unit VARCHAR NOT NULL,
    server VARCHAR REFERENCES servers (id),
    note VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
