-- How many qps.abs values of a campaign the rates of its per-run outputs reproduce.
SELECT sum(checked) AS checked, sum(agreed) AS agreed FROM tree_checks WHERE campaign = $campaign;
