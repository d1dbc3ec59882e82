-- Share of samples per symbol in each profile: self (the symbol is the leaf) and total (the
-- symbol is anywhere in the stack, counted once per stack). From folded stacks when there are
-- some; otherwise as perf report printed it (percent / 100). A profile is a variant,
-- microbenchmark, range (NULL where none) and thread count; samples' shares added in sample order.
CREATE TABLE profile_symbols AS
WITH totals AS (
    SELECT campaign, build, config, microbenchmark, "range", threads, sum(weight) AS total
    FROM profile_stacks GROUP BY ALL
), self AS (
    SELECT campaign, build, config, microbenchmark, "range", threads, frames[-1] AS symbol, sum(weight) AS w
    FROM profile_stacks GROUP BY ALL
), total AS (
    SELECT campaign, build, config, microbenchmark, "range", threads, symbol, sum(weight) AS w
    FROM (SELECT *, unnest(list_distinct(frames)) AS symbol FROM profile_stacks)
    GROUP BY ALL
), from_stacks AS (
    SELECT t.campaign, t.build, t.config, t.microbenchmark, t."range", t.threads, t.symbol,
           coalesce(s.w, 0) / n.total AS self_share, t.w / n.total AS total_share,
           'folded' AS source
    FROM total t
    JOIN totals n
      ON n.campaign = t.campaign AND n.build = t.build AND n.config = t.config
     AND n.microbenchmark = t.microbenchmark AND n."range" IS NOT DISTINCT FROM t."range" AND n.threads = t.threads
    LEFT JOIN self s
      ON s.campaign = t.campaign AND s.build = t.build AND s.config = t.config
     AND s.microbenchmark = t.microbenchmark AND s."range" IS NOT DISTINCT FROM t."range" AND s.threads = t.threads
     AND s.symbol = t.symbol
), report_samples AS (  -- a symbol's Children is printed once per row it has: the largest counts
    SELECT campaign, build, config, microbenchmark, "range", threads, sample, symbol,
           sum(self_pct) / 100 AS self_share, max(children_pct) / 100 AS total_share
    FROM profile_report r
    WHERE NOT EXISTS (SELECT 1 FROM totals n WHERE n.campaign = r.campaign AND n.build = r.build
                        AND n.config = r.config AND n.microbenchmark = r.microbenchmark
                        AND n."range" IS NOT DISTINCT FROM r."range" AND n.threads = r.threads)
    GROUP BY ALL
), from_report AS (  -- samples' percentages are already weighted by their share of events
    SELECT campaign, build, config, microbenchmark, "range", threads, symbol,
           sum(self_share ORDER BY sample) AS self_share, sum(total_share ORDER BY sample) AS total_share,
           'perf report' AS source
    FROM report_samples
    GROUP BY ALL
)
SELECT p.server, u.* FROM (SELECT * FROM from_stacks UNION ALL SELECT * FROM from_report) u
JOIN (SELECT DISTINCT campaign, server, build, config, microbenchmark, "range", threads FROM profiles) p
  ON p.campaign = u.campaign AND p.build = u.build AND p.config = u.config
 AND p.microbenchmark = u.microbenchmark AND p."range" IS NOT DISTINCT FROM u."range" AND p.threads = u.threads
-- in full: the rows of every campaign whatever the order its rows are stored in (ingest/previous.py)
ORDER BY u.campaign, p.server, u.build, u.config, u.microbenchmark, u."range", u.threads, u.symbol;
