-- Per-operation costs of every comparison (campaign, server, base variant) at every thread count,
-- each with the same cost of the base variant; a chart of one thread count keeps its own. The
-- whole site's, campaign by campaign, each campaign's in its order (models/20_comparison_costs.sql;
-- render/selection.py comparison_costs slices a comparison's).
SELECT * FROM comparison_costs ORDER BY rowid;
