-- Interval-function timings of the given calibrations in file order.
SELECT p.calibration, c.server, c.date::VARCHAR AS date, p.function, p.innodb_function,
       p.version, p.flags, p.upper_bound, p.n, p.ns_per_call, p.ns_per_call_text, p.calls,
       p.repetitions, p.stddev_ns, p.min_ns, p.max_ns, p.mean_draw
FROM calibration_prng p JOIN calibrations c ON c.id = p.calibration
WHERE list_contains($calibrations, p.calibration)
ORDER BY p.calibration, p.line;
