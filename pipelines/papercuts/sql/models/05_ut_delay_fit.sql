-- ut_delay wall-clock time against the delay X, per calibration and series: a least-squares
-- line us_per_call ≈ intercept_us + us_per_unit · X. us_per_unit_stderr is the standard error
-- of the slope (NULL below 3 points); r2 how much of the variation the line explains.
CREATE TABLE ut_delay_fit AS
SELECT calibration, series, count(*) AS points, max(delay) AS max_delay,
       regr_slope(us_per_call, delay) AS us_per_unit,
       regr_intercept(us_per_call, delay) AS intercept_us,
       CASE WHEN count(*) > 2 AND regr_sxx(us_per_call, delay) > 0 THEN
           sqrt(greatest(regr_syy(us_per_call, delay)
                         - regr_sxy(us_per_call, delay) ^ 2 / regr_sxx(us_per_call, delay), 0)
                / (count(*) - 2) / regr_sxx(us_per_call, delay))
       END AS us_per_unit_stderr,
       regr_r2(us_per_call, delay) AS r2
FROM calibration_ut_delay
GROUP BY calibration, series;
