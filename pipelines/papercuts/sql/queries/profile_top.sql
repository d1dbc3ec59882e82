-- Self and total share of every symbol in the profiles of one campaign, microbenchmark and
-- thread count, per variant, with where the shares come from (folded stacks or perf report).
SELECT s.build || '.' || s.config AS variant, s.symbol, s.self_share, s.total_share, s.source
FROM profile_symbols s
WHERE s.campaign = $campaign AND s.microbenchmark = $microbenchmark AND s.threads = $threads
ORDER BY variant, s.self_share DESC, s.symbol;
