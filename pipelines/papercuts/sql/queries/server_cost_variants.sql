-- The variants of every comparison (campaign, server, base variant) with a per-operation cost
-- beside their rQPS, per thread count (models/21_cost_variants.sql): the whole site's, as a server
-- page needs no comparison's costs themselves.
SELECT campaign, server, base_build, base_config, threads, version_rank, build, config, variant
FROM cost_variants;
