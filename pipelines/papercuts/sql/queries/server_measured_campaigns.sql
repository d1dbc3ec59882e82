-- The campaigns with measured results on one server.
SELECT DISTINCT campaign FROM file_rows WHERE server = $s AND measured ORDER BY campaign;
