-- The server of one ladder: its chart reads the lines and changes of all that server's ladders.
SELECT server FROM ladders WHERE ladder = $ladder;
