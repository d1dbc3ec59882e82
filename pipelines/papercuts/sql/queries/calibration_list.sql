-- Calibrations, with their source and what they hold: every server's (a server page takes its own,
-- render/site_rows.py).
WITH ut AS (SELECT calibration, count(*) AS n FROM calibration_ut_delay GROUP BY ALL),
     prng AS (SELECT calibration, count(*) AS n FROM calibration_prng GROUP BY ALL),
     draws AS (SELECT calibration, count(*) AS n FROM draw_cost WHERE draw_over_wait IS NOT NULL GROUP BY ALL),
     ticks AS (SELECT calibration, count(*) AS n FROM timebase_runs GROUP BY ALL)
SELECT c.id, c.title, c.server, c.date::VARCHAR AS date, c.contributor, c.method, c.cpu_model,
       c.cores, c.arch, c.kernel, c.compiler, c.missing, c.campaign, c.measure, c.notes, c.file,
       s.id AS source_id, s.title AS source_title, s.author AS source_author,
       s.date::VARCHAR AS source_date, s.publication AS source_publication, s.url AS source_url,
       coalesce(ut.n, 0) AS ut_delay_rows, coalesce(prng.n, 0) AS prng_rows,
       coalesce(draws.n, 0) AS draw_cost_rows, coalesce(ticks.n, 0) AS timebase_subjects
FROM calibrations c JOIN sources s ON s.id = c.source
LEFT JOIN ut ON ut.calibration = c.id
LEFT JOIN prng ON prng.calibration = c.id
LEFT JOIN draws ON draws.calibration = c.id
LEFT JOIN ticks ON ticks.calibration = c.id
ORDER BY c.server, c.date, c.id;
