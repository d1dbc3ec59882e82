-- Every campaign and server with per-operation costs (op_costs_selection is asked only of these).
SELECT DISTINCT campaign, server FROM op_costs;
