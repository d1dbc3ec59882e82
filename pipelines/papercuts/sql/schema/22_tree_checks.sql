-- Where a mytools folder keeps its per-run outputs beside its summary tables, the runs' own
-- sysbench rates are the results and each qps.abs value is checked against them at the precision
-- the table prints (validate/archive.py): how many were checked and how many agreed.
-- Its references to the catalogs are checked once loaded: sql/checks/campaign_rows_references.sql.
CREATE TABLE tree_checks (
    campaign VARCHAR NOT NULL,
    checked INTEGER NOT NULL CHECK (checked > 0),
    agreed INTEGER NOT NULL CHECK (agreed >= 0 AND agreed <= checked)
);
