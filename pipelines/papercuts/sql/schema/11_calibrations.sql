-- One calibration folder (data/calibrations/<date>-<server>-<label>/calibration.toml): who
-- measured which server, when, how, and on what machine. campaign + measure point at
-- observations (tick counts) that belong to this calibration without copying them.
CREATE TABLE calibrations (
    id VARCHAR PRIMARY KEY,
    title VARCHAR NOT NULL,
    server VARCHAR NOT NULL REFERENCES servers (id),
    source VARCHAR NOT NULL REFERENCES sources (id),
    contributor VARCHAR NOT NULL,
    date DATE NOT NULL,
    method VARCHAR NOT NULL,
    cpu_model VARCHAR,
    cores INTEGER CHECK (cores >= 1),
    arch VARCHAR,
    kernel VARCHAR,
    compiler VARCHAR,
    missing VARCHAR[],
    campaign VARCHAR REFERENCES campaigns (id),
    measure VARCHAR,
    notes VARCHAR,
    file VARCHAR NOT NULL
);
