-- Expected wait per spin for innodb_spin_wait_delay N = 1..10, on each calibrated server.
-- X is drawn uniformly from [0, N) up to MySQL 8.0.28, mean (N - 1) / 2 units, and from
-- [0, N] since 8.0.30, mean N / 2 units (seed 000: 2.5 → 3.0 units for N = 6, ×1.2).
-- The wait in µs is the fitted line at the mean X: linear, so the mean of the line is the
-- line at the mean (never below 0: a wait cannot be negative).
CREATE TABLE spin_wait AS
WITH settings AS (SELECT unnest(range(1, 11)) AS n)
SELECT d.calibration, d.server, s.n,
       (s.n - 1) / 2 AS mean_units_excluded,
       s.n / 2 AS mean_units_included,
       CASE WHEN s.n > 1 THEN s.n / (s.n - 1) END AS ratio,
       greatest(d.intercept_us + d.us_per_unit * (s.n - 1) / 2, 0) AS wait_us_excluded,
       greatest(d.intercept_us + d.us_per_unit * s.n / 2, 0) AS wait_us_included
FROM delay_unit d CROSS JOIN settings s;
