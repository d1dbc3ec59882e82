-- Every file of every campaign as committed (campaign.toml, CSVs, raw outputs, README, my.cnf,
-- run.sh, ...), checked for name, type and size in validate: render publishes these bytes and
-- never reads data/ itself. The bytes are stored by their SHA-256 beside the database
-- (ingest/blobs.py).
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE evidence (
    campaign VARCHAR NOT NULL,
    name VARCHAR NOT NULL,  -- relative to the campaign folder, e.g. raw/run.sh
    sha256 VARCHAR NOT NULL,
    size BIGINT NOT NULL,  -- a large file is served gzipped: render/served.py
    PRIMARY KEY (campaign, name)
);
