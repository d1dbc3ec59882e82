-- Every server, for its page.
SELECT * FROM servers ORDER BY id;
