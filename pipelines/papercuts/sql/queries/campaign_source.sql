-- The source document of every campaign, as an embedded chart of it cites it (read once per build).
SELECT c.id AS campaign, s.id, s.title, s.author, s.date::VARCHAR AS date, s.publication, s.url
FROM campaigns c JOIN sources s ON s.id = c.source;
