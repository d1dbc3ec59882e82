-- The ladder pages (a server, DBMS and thread count each) with the campaigns on them, by page:
-- a server's page links its own pages, a campaign's page those it appears on (render/ladder_links.py).
SELECT DISTINCT server, dbms, threads, campaign
FROM ladders
ORDER BY server, dbms, threads, campaign;
