-- Every microbenchmark's group and unit.
SELECT name, "group", unit FROM microbenchmarks ORDER BY name;
