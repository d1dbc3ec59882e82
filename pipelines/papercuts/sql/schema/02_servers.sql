CREATE TABLE servers (
    id VARCHAR PRIMARY KEY,
    aliases VARCHAR[],
    cpu_model VARCHAR,
    sockets INTEGER CHECK (sockets >= 1),
    cores INTEGER CHECK (cores >= 1),
    smt VARCHAR CHECK (smt IN ('on', 'off')),
    ram_gb INTEGER CHECK (ram_gb >= 1),
    os VARCHAR,
    storage VARCHAR,
    notes VARCHAR,
    source VARCHAR NOT NULL REFERENCES sources (id)
);
