-- The cross-server calibration table for the given calibrations.
SELECT s.*, s.date::VARCHAR AS date FROM calibration_summary s
WHERE list_contains($calibrations, s.calibration)
ORDER BY s.calibration;
