-- Every file of every campaign as committed (campaign.toml, CSVs, raw outputs, README, my.cnf,
-- run.sh, ...), checked for name, type and size in validate: render publishes these bytes and
-- never reads data/ itself.
CREATE TABLE evidence (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    name VARCHAR NOT NULL,  -- relative to the campaign folder, e.g. raw/run.sh
    bytes BLOB NOT NULL,
    sha256 VARCHAR NOT NULL,
    size BIGINT NOT NULL,  -- of bytes: read without the blobs (a large file is served gzipped: render/served.py)
    PRIMARY KEY (campaign, name)
);
