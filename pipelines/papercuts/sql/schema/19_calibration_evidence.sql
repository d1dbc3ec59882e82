-- Every file of every calibration folder as committed (calibration.toml and its CSVs), published
-- byte for byte beside the calibration page.
CREATE TABLE calibration_evidence (
    calibration VARCHAR NOT NULL REFERENCES calibrations (id),
    name VARCHAR NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (calibration, name)
);
