-- One row per calibration, to compare servers: µs per delay unit, the expected wait for the
-- calibration's innodb_spin_wait_delay under both interval rules, each InnoDB interval
-- function's cost at -O2 (under the rule that function uses: [0, N) for ut_rnd_interval,
-- [0, N] for the 8.0.30+ functions), and the constants measured or stated with it.
CREATE TABLE calibration_summary AS
WITH k AS (
    SELECT calibration,
           max(value) FILTER (WHERE name = 'innodb_spin_wait_delay') AS spin_wait_delay,
           max(value) FILTER (WHERE name = 'pause_tsc_cycles') AS pause_tsc_cycles,
           max(value_text) FILTER (WHERE name = 'pause_tsc_cycles') AS pause_tsc_cycles_text,
           max(value) FILTER (WHERE name = 'tsc_ghz') AS tsc_ghz,
           max(value_text) FILTER (WHERE name = 'tsc_ghz') AS tsc_ghz_text,
           max(value) FILTER (WHERE name = 'pause_multiplier') AS pause_multiplier,
           max(value_text) FILTER (WHERE name = 'cycle_timer_overhead') AS cycle_timer_overhead_text
    FROM calibration_constants GROUP BY calibration
), rule(innodb_function, upper_bound) AS (
    VALUES ('ut_rnd_interval', 'excluded'), ('ut::random_from_interval', 'included'),
           ('ut::random_from_interval_fast', 'included')
), draws AS (
    SELECT p.calibration,
           arg_min(p.ns_per_call_text, p.function) FILTER (WHERE p.innodb_function = 'ut_rnd_interval') AS ns_old_text,
           arg_min(p.ns_per_call, p.function) FILTER (WHERE p.innodb_function = 'ut_rnd_interval') AS ns_old,
           arg_min(p.ns_per_call_text, p.function) FILTER (WHERE p.innodb_function = 'ut::random_from_interval') AS ns_crc_text,
           arg_min(p.ns_per_call_text, p.function) FILTER (WHERE p.innodb_function = 'ut::random_from_interval_fast') AS ns_fast_text,
           arg_min(p.ns_per_call, p.function) FILTER (WHERE p.innodb_function = 'ut::random_from_interval_fast') AS ns_fast
    FROM calibration_prng p JOIN rule r USING (innodb_function, upper_bound)
    WHERE p.flags = 'O2'
    GROUP BY p.calibration
)
SELECT c.id AS calibration, c.server, c.date, c.source, d.us_per_unit, d.us_per_unit_stderr,
       d.points, d.r2, k.spin_wait_delay,
       (k.spin_wait_delay - 1) / 2 AS mean_units_excluded, k.spin_wait_delay / 2 AS mean_units_included,
       CASE WHEN k.spin_wait_delay > 1 THEN k.spin_wait_delay / (k.spin_wait_delay - 1) END AS ratio,
       greatest(d.intercept_us + d.us_per_unit * (k.spin_wait_delay - 1) / 2, 0) AS wait_us_excluded,
       greatest(d.intercept_us + d.us_per_unit * k.spin_wait_delay / 2, 0) AS wait_us_included,
       w.ns_old_text, w.ns_crc_text, w.ns_fast_text, w.ns_fast / w.ns_old AS fast_over_old,
       k.pause_tsc_cycles, k.pause_tsc_cycles_text, k.tsc_ghz, k.tsc_ghz_text, k.pause_multiplier,
       k.cycle_timer_overhead_text
FROM calibrations c
JOIN delay_unit d ON d.calibration = c.id
LEFT JOIN k ON k.calibration = c.id
LEFT JOIN draws w ON w.calibration = c.id;
