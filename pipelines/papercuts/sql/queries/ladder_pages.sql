-- Ladder pages: one per server, DBMS and thread count; each lists its ladders (one per campaign,
-- engine and config family), newest campaign first.
SELECT l.ladder, l.server, l.dbms, l.engine, l.family, l.threads, l.campaign, c.title AS campaign_title,
       c.date, l.builds, l.series, l.incomplete, l.noise, l.repetitions,
       (SELECT count(*) FROM change_points p WHERE p.ladder = l.ladder AND p.kind = 'series') AS changes
FROM ladders l JOIN campaigns c ON c.id = l.campaign
ORDER BY l.server, l.dbms, l.threads, c.date DESC, l.campaign, l.engine, l.family;
