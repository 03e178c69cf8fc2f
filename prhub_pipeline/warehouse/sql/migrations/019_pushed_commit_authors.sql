-- Who pushed a commit without a PR across the names they commit under
-- (PushedCommit.author_key, as prs.author_key): the author SQL models count PR authors, and
-- OpenRLHF's xiaoxigua999, who pushed 510 commits, showed as the author of 29 PRs. NULL
-- in rows stored before the column, until their weeks are ingested again.
ALTER TABLE pushed_commits ADD COLUMN author_key VARCHAR;
COMMENT ON COLUMN pushed_commits.author_key IS 'Who the author is whatever name they used, as prs.author_key: a GitHub noreply address''s login, else the commit''s email, lowercased; NULL in rows stored before the column existed, until their weeks are ingested again.';
