-- Cost of one call of an interval random-number function (the draw of X before ut_delay(X)).
CREATE TABLE calibration_prng (
    calibration VARCHAR NOT NULL REFERENCES calibrations (id),
    function VARCHAR NOT NULL,
    innodb_function VARCHAR CHECK (innodb_function IN
        ('ut_rnd_interval', 'ut::random_from_interval', 'ut::random_from_interval_fast')),
    version VARCHAR,
    flags VARCHAR NOT NULL CHECK (flags IN ('O2', 'O3', 'native')),
    upper_bound VARCHAR CHECK (upper_bound IN ('excluded', 'included')),
    n INTEGER CHECK (n >= 1),
    ns_per_call DOUBLE NOT NULL CHECK (ns_per_call >= 0),
    ns_per_call_text VARCHAR NOT NULL, -- as printed
    calls BIGINT,
    repetitions INTEGER,
    stddev_ns DOUBLE,
    min_ns DOUBLE CHECK (min_ns <= ns_per_call),
    max_ns DOUBLE CHECK (max_ns >= ns_per_call),
    mean_draw DOUBLE,
    note VARCHAR,
    file VARCHAR NOT NULL,
    line INTEGER NOT NULL
);
