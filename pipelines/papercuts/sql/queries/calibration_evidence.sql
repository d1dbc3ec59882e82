-- The bytes of one calibration's files, by name.
SELECT name, bytes FROM calibration_evidence WHERE calibration = $calibration ORDER BY name;
