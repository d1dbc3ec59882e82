-- The campaigns that published rQPS summaries for one server, with their titles.
SELECT DISTINCT s.campaign, c.title FROM summaries s JOIN campaigns c ON c.id = s.campaign
WHERE s.server = $s ORDER BY s.campaign;
