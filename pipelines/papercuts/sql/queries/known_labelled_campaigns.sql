-- (campaign, known regression) for each known regression labelling a change on a campaign's ladders.
SELECT DISTINCT l.campaign, ck.known
FROM change_known ck JOIN ladders l ON l.ladder = ck.ladder
ORDER BY ALL;
