-- Self and total share of every symbol in the profiles of one campaign, microbenchmark and
-- thread count, per variant, with where the shares come from (folded stacks or perf report).
-- $microbenchmark is the site's label: the name, with `_range=<R>` when the profile has a range.
SELECT s.build || '.' || s.config AS variant, s.symbol, s.self_share, s.total_share, s.source
FROM profile_symbols s
WHERE s.campaign = $campaign AND s.microbenchmark || coalesce('_range=' || s."range", '') = $microbenchmark
  AND s.threads = $threads
ORDER BY variant, s.self_share DESC, s.symbol;
