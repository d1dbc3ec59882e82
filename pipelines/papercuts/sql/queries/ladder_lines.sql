-- The headline lines of every ladder (derive/ladders.py makes them, with the search), by ladder:
-- the whole site's, read once per process and sliced by ladder (render/site_rows.py table_of).
SELECT ladder, position, variant, version, series, rqps, n
FROM ladder_lines
ORDER BY ladder, series, position;
