-- Every file of every calibration folder as committed (calibration.toml and its CSVs), published
-- byte for byte beside the calibration page; the bytes are stored by their SHA-256 beside the
-- database (ingest/blobs.py).
CREATE TABLE calibration_evidence (
    calibration VARCHAR NOT NULL REFERENCES calibrations (id),
    name VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    size BIGINT NOT NULL,
    PRIMARY KEY (calibration, name)
);
