-- One committed file's bytes, by its key (the primary key's index: a lookup, not a scan).
SELECT bytes FROM evidence WHERE campaign = $campaign AND name = $name;
