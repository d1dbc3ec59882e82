-- The data files of one calibration, with their row counts (calibration.toml has none).
SELECT file, count(*) AS rows FROM (
    SELECT file FROM calibration_ut_delay WHERE calibration = $calibration
    UNION ALL SELECT file FROM calibration_prng WHERE calibration = $calibration
    UNION ALL SELECT file FROM calibration_constants WHERE calibration = $calibration
) GROUP BY file ORDER BY file;
