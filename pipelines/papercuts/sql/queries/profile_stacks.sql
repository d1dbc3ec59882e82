-- The folded stacks of one profile (a variant, microbenchmark and thread count of a campaign).
SELECT frames, weight
FROM profile_stacks
WHERE campaign = $campaign AND build = $build AND config = $config
  AND microbenchmark = $microbenchmark AND threads = $threads
ORDER BY line;
