-- The size of each file of one campaign (a large file is served gzipped under another name:
-- render/served.py), from its size column: reading the blobs for it cost 6.4 s of render at x100.
SELECT name, size FROM evidence WHERE campaign = $campaign;
