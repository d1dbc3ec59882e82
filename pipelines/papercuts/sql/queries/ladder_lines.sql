-- The headline lines of one server's ladders (derive/ladders.py makes them, with the search).
SELECT ladder, position, variant, version, series, rqps, n
FROM ladder_lines
WHERE server = $server
ORDER BY ladder, series, position;
