-- What drawing X costs next to the wait it chooses: ns per call of an interval function over
-- the expected wait, in ns, for the calibration's innodb_spin_wait_delay (constants.csv)
-- under the function's interval rule (upper_bound). NULL where one of them is not known.
CREATE TABLE draw_cost AS
WITH setting AS (
    SELECT calibration, value AS n FROM calibration_constants WHERE name = 'innodb_spin_wait_delay'
), waits AS (
    SELECT p.*, c.server, s.n AS spin_wait_delay,
           greatest(d.intercept_us + d.us_per_unit * CASE p.upper_bound
               WHEN 'excluded' THEN (s.n - 1) / 2 WHEN 'included' THEN s.n / 2 END, 0) AS wait_us
    FROM calibration_prng p
    JOIN calibrations c ON c.id = p.calibration
    LEFT JOIN setting s ON s.calibration = p.calibration
    LEFT JOIN delay_unit d ON d.calibration = p.calibration
)
SELECT calibration, server, function, innodb_function, version, flags, upper_bound, line,
       ns_per_call, ns_per_call_text, spin_wait_delay, wait_us,
       CASE WHEN wait_us > 0 THEN ns_per_call / (1000 * wait_us) END AS draw_over_wait
FROM waits;
