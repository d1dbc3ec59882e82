-- One key's rows of a whole-site query, in that query's order (render/site_rows.py fills in the
-- query's text and the column it is keyed by).
SELECT * FROM (
{query}
) WHERE "{column}" = $value
