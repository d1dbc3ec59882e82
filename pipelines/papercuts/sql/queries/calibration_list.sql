-- Calibrations, with their source and what they hold; $server NULL for every server.
SELECT c.id, c.title, c.server, c.date::VARCHAR AS date, c.contributor, c.method, c.cpu_model,
       c.cores, c.arch, c.kernel, c.compiler, c.missing, c.campaign, c.measure, c.notes, c.file,
       s.id AS source_id, s.title AS source_title, s.author AS source_author,
       s.date::VARCHAR AS source_date, s.publication AS source_publication, s.url AS source_url,
       (SELECT count(*) FROM calibration_ut_delay u WHERE u.calibration = c.id) AS ut_delay_rows,
       (SELECT count(*) FROM calibration_prng p WHERE p.calibration = c.id) AS prng_rows,
       (SELECT count(*) FROM draw_cost d WHERE d.calibration = c.id AND d.draw_over_wait IS NOT NULL)
           AS draw_cost_rows,
       (SELECT count(*) FROM timebase_runs t WHERE t.calibration = c.id) AS timebase_subjects
FROM calibrations c JOIN sources s ON s.id = c.source
WHERE $server IS NULL OR c.server = $server
ORDER BY c.server, c.date, c.id;
