-- Every config's settings (name=value;...), by id.
SELECT id, settings FROM configs;
