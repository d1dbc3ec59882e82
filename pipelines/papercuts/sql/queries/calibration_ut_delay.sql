-- ut_delay rows of the given calibrations in file order, with each series' fitted line.
SELECT u.calibration, c.server, c.date::VARCHAR AS date, u.series, u.version, u.flags, u.delay,
       u.multiplier, u.us_per_call, u.us_per_call_text, u.calls, u.repetitions, u.stddev_us,
       u.min_us, u.max_us, f.us_per_unit, f.us_per_unit_stderr
FROM calibration_ut_delay u
JOIN calibrations c ON c.id = u.calibration
JOIN ut_delay_fit f ON f.calibration = u.calibration AND f.series = u.series
WHERE list_contains($calibrations, u.calibration)
ORDER BY u.calibration, u.line;
