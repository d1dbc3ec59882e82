-- The size of each file of one campaign (a large file is served gzipped under another name:
-- render/served.py), from its size column: reading the blobs took 0.27 s a query at x100.
SELECT name, size FROM evidence WHERE campaign = $campaign;
