-- Every calibration id with its server, for checking a chart's selection.
SELECT id, server FROM calibrations ORDER BY id;
