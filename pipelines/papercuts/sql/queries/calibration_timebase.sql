-- The tick counts the given calibrations point at, one row per run, with the subject's summary.
SELECT c.id AS calibration, c.server, c.date::VARCHAR AS date, o.subject, o.x AS run,
       o.value AS ticks, o.value_text AS ticks_text, t.timebase_mhz, t.runs, t.mean_ticks,
       t.min_ticks, t.max_ticks, t.stddev_ticks, t.mean_us
FROM calibrations c
JOIN observations o ON o.campaign = c.campaign AND o.measure = c.measure
JOIN timebase_runs t ON t.calibration = c.id AND t.subject = o.subject
WHERE list_contains($calibrations, c.id)
ORDER BY c.id, t.first_line, o.line;
