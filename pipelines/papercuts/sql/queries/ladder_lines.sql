-- The headline lines of every ladder (derive/ladders.py makes them, with the search), by ladder:
-- the whole site's, read once per process and sliced by ladder (render/site_rows.py table_of).
-- In the table's order: a ladder's rows are stored together, by series, then position
-- (ladders._lines_table), so no sort is needed (x100: 101,112 rows, 21-23 ms sorted, 11 ms so).
SELECT ladder, position, variant, version, series, rqps, n
FROM ladder_lines
ORDER BY rowid;
