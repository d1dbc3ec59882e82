-- Single measured or stated numbers of a calibration (PAUSE cost, TSC rate, settings used).
CREATE TABLE calibration_constants (
    calibration VARCHAR NOT NULL REFERENCES calibrations (id),
    name VARCHAR NOT NULL,
    value DOUBLE NOT NULL CHECK (value >= 0),
    value_text VARCHAR NOT NULL, -- as printed
    unit VARCHAR NOT NULL,
    repetitions INTEGER,
    stddev DOUBLE,
    min DOUBLE CHECK (min <= value),
    max DOUBLE CHECK (max >= value),
    note VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL,
    UNIQUE (calibration, name)
);
