-- Expected wait per spin by innodb_spin_wait_delay for the given calibrations.
SELECT w.*, c.date::VARCHAR AS date
FROM spin_wait w JOIN calibrations c ON c.id = w.calibration
WHERE list_contains($calibrations, w.calibration)
ORDER BY w.calibration, w.n;
