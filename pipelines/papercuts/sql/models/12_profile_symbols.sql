-- Share of samples per symbol in each profile: self (the symbol is the leaf) and total (the
-- symbol is anywhere in the stack, counted once per stack). From folded stacks when there are
-- some; otherwise as perf report printed it (percent / 100).
CREATE TABLE profile_symbols AS
WITH totals AS (
    SELECT campaign, build, config, microbenchmark, threads, sum(weight) AS total
    FROM profile_stacks GROUP BY ALL
), self AS (
    SELECT campaign, build, config, microbenchmark, threads, frames[-1] AS symbol, sum(weight) AS w
    FROM profile_stacks GROUP BY ALL
), total AS (
    SELECT campaign, build, config, microbenchmark, threads, symbol, sum(weight) AS w
    FROM (SELECT *, unnest(list_distinct(frames)) AS symbol FROM profile_stacks)
    GROUP BY ALL
), from_stacks AS (
    SELECT t.campaign, t.build, t.config, t.microbenchmark, t.threads, t.symbol,
           coalesce(s.w, 0) / n.total AS self_share, t.w / n.total AS total_share,
           'folded' AS source
    FROM total t
    JOIN totals n USING (campaign, build, config, microbenchmark, threads)
    LEFT JOIN self s USING (campaign, build, config, microbenchmark, threads, symbol)
), from_report AS (
    SELECT campaign, build, config, microbenchmark, threads, symbol,
           sum(self_pct) / 100 AS self_share, max(children_pct) / 100 AS total_share,
           'perf report' AS source
    FROM profile_report r
    WHERE NOT EXISTS (SELECT 1 FROM totals n WHERE n.campaign = r.campaign AND n.build = r.build
                        AND n.config = r.config AND n.microbenchmark = r.microbenchmark
                        AND n.threads = r.threads)
    GROUP BY ALL
)
SELECT p.server, u.* FROM (SELECT * FROM from_stacks UNION ALL SELECT * FROM from_report) u
JOIN (SELECT DISTINCT campaign, server, build, config, microbenchmark, threads FROM profiles) p
  USING (campaign, build, config, microbenchmark, threads);
