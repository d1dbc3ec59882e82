-- Wall-clock time of one ut_delay(delay) call, per series (what was timed) and delay.
CREATE TABLE calibration_ut_delay (
    calibration VARCHAR NOT NULL REFERENCES calibrations (id),
    series VARCHAR NOT NULL,
    version VARCHAR,
    flags VARCHAR CHECK (flags IN ('O2', 'O3', 'native')),
    delay INTEGER NOT NULL CHECK (delay >= 0),
    multiplier INTEGER CHECK (multiplier >= 1),
    us_per_call DOUBLE NOT NULL CHECK (us_per_call >= 0),
    us_per_call_text VARCHAR NOT NULL, -- as printed, so 0.00 stays 0.00
    calls BIGINT,
    repetitions INTEGER,
    stddev_us DOUBLE,
    min_us DOUBLE CHECK (min_us <= us_per_call),
    max_us DOUBLE CHECK (max_us >= us_per_call),
    note VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL,
    UNIQUE (calibration, series, delay)
);
