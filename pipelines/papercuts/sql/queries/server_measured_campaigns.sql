-- The campaigns with measured results on one server.
SELECT DISTINCT campaign FROM results WHERE server = $s ORDER BY campaign;
