-- One calibration's files, by name (their bytes are stored by SHA-256: ingest/blobs.py).
SELECT name, sha256, size FROM calibration_evidence WHERE calibration = $calibration ORDER BY name;
