-- Every campaign with its provenance and source document, newest first.
SELECT c.id, c.title, c.date::VARCHAR AS date, c.contributor, c.sysbench, c.tables, c.rows_per_table,
       c.duration_read_s, c.duration_write_s, c.base_build, c.base_config, c.notes, c.file,
       c.server, c.raw_layout, c.readme,
       s.id AS source_id, s.title AS source_title, s.author AS source_author,
       s.date::VARCHAR AS source_date, s.publication AS source_publication, s.url AS source_url
FROM campaigns c JOIN sources s ON s.id = c.source
ORDER BY c.date DESC, c.id;
