-- Where a mytools folder keeps its per-run outputs beside its summary tables, the runs' own
-- sysbench rates are the results and each qps.abs value is checked against them at the precision
-- the table prints (validate/archive.py): how many were checked and how many agreed.
CREATE TABLE tree_checks (
    campaign VARCHAR NOT NULL REFERENCES campaigns (id),
    checked INTEGER NOT NULL CHECK (checked > 0),
    agreed INTEGER NOT NULL CHECK (agreed >= 0 AND agreed <= checked)
);
