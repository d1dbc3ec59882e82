-- The headline lines of one server's ladders (derive/ladders.py makes them: ladder_lines_insert).
SELECT ladder, position, variant, version, series, rqps, n
FROM ladder_lines
WHERE server = $server
ORDER BY ladder, series, position;
