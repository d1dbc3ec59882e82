-- Every build's place in version order, as a rank: only the order of the ranks is read (an rQPS
-- comparison's rows, render/selection.py rqps_table), never their values; ranked among every
-- build (a few hundred), not per comparison.
SELECT id, dense_rank() OVER (ORDER BY version_key) AS version_rank
FROM builds;
