-- Rows per campaign, server and data file, and whether they are measured results: what a campaign
-- page lists (its files and servers) and a server page (its campaigns), instead of each page
-- scanning every table of rows (x100: four such queries a page, 0.8 s of the render stage's CPU).
-- Counts add no floats: made on every core, and for the changed campaigns only in an incremental
-- build (derive/models.py PER_CAMPAIGN).
CREATE TABLE file_rows AS
SELECT campaign, server, file, measured, count(*) AS rows
FROM (
    SELECT campaign, server, file, true AS measured FROM results
    UNION ALL SELECT campaign, server, file, false FROM relative
    UNION ALL SELECT campaign, server, file, false FROM summaries
    UNION ALL SELECT campaign, server, file, false FROM observations
)
GROUP BY ALL
ORDER BY campaign, server, file, measured;
