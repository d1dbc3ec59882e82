-- µs per delay unit of each calibration's server: the same least-squares fit over every
-- ut_delay row of the calibration (all series together: the loop is the same code).
CREATE TABLE delay_unit AS
SELECT u.calibration, c.server, count(*) AS points, count(DISTINCT u.series) AS series,
       regr_slope(u.us_per_call, u.delay) AS us_per_unit,
       regr_intercept(u.us_per_call, u.delay) AS intercept_us,
       CASE WHEN count(*) > 2 AND regr_sxx(u.us_per_call, u.delay) > 0 THEN
           sqrt(greatest(regr_syy(u.us_per_call, u.delay)
                         - regr_sxy(u.us_per_call, u.delay) ^ 2 / regr_sxx(u.us_per_call, u.delay), 0)
                / (count(*) - 2) / regr_sxx(u.us_per_call, u.delay))
       END AS us_per_unit_stderr,
       regr_r2(u.us_per_call, u.delay) AS r2
FROM calibration_ut_delay u JOIN calibrations c ON c.id = u.calibration
GROUP BY u.calibration, c.server;
