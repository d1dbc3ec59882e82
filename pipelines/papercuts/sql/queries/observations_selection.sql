-- One measure of a campaign's published observations, in file order.
SELECT subject, x_label, x, value, value_text, unit, server, note
FROM observations
WHERE campaign = $campaign AND measure = $measure
ORDER BY line;
