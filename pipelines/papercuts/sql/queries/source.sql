-- One source document, as pages cite it.
SELECT id, title, author, date::VARCHAR AS date, publication, url FROM sources WHERE id = $id;
