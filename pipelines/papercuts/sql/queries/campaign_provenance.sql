-- A campaign's provenance, as an investigation's Sources table lists it.
SELECT title, contributor, date::VARCHAR AS date, sysbench, tables, rows_per_table, duration_read_s,
       duration_write_s, raw_layout, file
FROM campaigns WHERE id = $id;
