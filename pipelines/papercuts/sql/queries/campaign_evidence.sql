-- Every file of every campaign as committed, by campaign and name: published byte for byte (its
-- bytes are stored by SHA-256: ingest/blobs.py).
SELECT campaign, name, sha256, size FROM evidence ORDER BY campaign, name;
