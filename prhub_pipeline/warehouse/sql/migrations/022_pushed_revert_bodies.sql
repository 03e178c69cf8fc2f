-- A pushed revert's message after its subject (PushedCommit.body), where a revert PR's
-- description would give its reason: OpenRLHF's maintainers pushed the reverts of #200, #524,
-- #581 and #725, and the reports told no reason and looked for no re-land of them. Only a
-- commit that reads as a revert keeps it; NULL for the others, and in rows stored before the
-- column until their weeks are ingested again.
ALTER TABLE pushed_commits ADD COLUMN body VARCHAR;
COMMENT ON COLUMN pushed_commits.body IS 'A revert''s commit message after its subject (trailers left out), as prs.body holds a PR''s description; NULL for a commit that is no revert, and in rows stored before the column until their weeks are ingested again.';
