-- Tick counts a calibration points at (calibration.toml campaign + measure), per subject:
-- the runs, their mean and spread, and the mean as µs at the calibration's timebase_mhz.
CREATE TABLE timebase_runs AS
SELECT c.id AS calibration, c.server, o.subject, min(o.line) AS first_line, count(*) AS runs,
       avg(o.value) AS mean_ticks, min(o.value) AS min_ticks, max(o.value) AS max_ticks,
       stddev_samp(o.value) AS stddev_ticks, any_value(k.value) AS timebase_mhz,
       avg(o.value) / any_value(k.value) AS mean_us
FROM calibrations c
JOIN observations o ON o.campaign = c.campaign AND o.measure = c.measure
LEFT JOIN calibration_constants k ON k.calibration = c.id AND k.name = 'timebase_mhz'
GROUP BY c.id, c.server, o.subject
ORDER BY calibration, server, subject;
