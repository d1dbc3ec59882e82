-- The source document of one campaign, as an embedded chart of it cites it.
SELECT s.id, s.title, s.author, s.date::VARCHAR AS date, s.publication, s.url
FROM campaigns c JOIN sources s ON s.id = c.source
WHERE c.id = $campaign;
