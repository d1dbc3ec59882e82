-- The folded stacks of one profile (a variant, microbenchmark and thread count of a campaign).
-- $microbenchmark is the site's label: the name, with `_range=<R>` when the profile has a range.
SELECT frames, weight
FROM profile_stacks
WHERE campaign = $campaign AND build = $build AND config = $config
  AND microbenchmark || coalesce('_range=' || "range", '') = $microbenchmark AND threads = $threads
ORDER BY line;
