-- Draw cost next to the wait it chooses, for the given calibrations (known waits only).
SELECT d.*, c.date::VARCHAR AS date
FROM draw_cost d JOIN calibrations c ON c.id = d.calibration
WHERE list_contains($calibrations, d.calibration) AND d.draw_over_wait IS NOT NULL
ORDER BY d.calibration, d.line;
