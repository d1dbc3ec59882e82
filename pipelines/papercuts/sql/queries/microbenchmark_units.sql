-- Every microbenchmark's unit (queries/s, ...), by name.
SELECT name, unit FROM microbenchmarks;
