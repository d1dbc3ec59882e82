-- The campaign of one ladder: the data its chart draws (a ladder is one campaign's builds).
SELECT campaign FROM ladders WHERE ladder = $ladder;
