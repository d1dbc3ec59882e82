-- The source documents, as pages cite them (a page takes its own, render/site_rows.py).
SELECT id, title, author, date::VARCHAR AS date, publication, url FROM sources ORDER BY id;
