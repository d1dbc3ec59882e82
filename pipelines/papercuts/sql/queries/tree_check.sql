-- How many qps.abs values of each campaign the rates of its per-run outputs reproduce; campaign by
-- campaign (a campaign's page takes its own, render/site_rows.py).
SELECT campaign, sum(checked) AS checked, sum(agreed) AS agreed FROM tree_checks GROUP BY campaign ORDER BY campaign;
