-- The servers with per-operation costs (x100: 8 of 60): explore_costs.sql is asked only of these.
SELECT DISTINCT server FROM op_costs;
