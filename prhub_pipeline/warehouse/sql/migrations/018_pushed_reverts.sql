-- The PR a commit pushed without a PR reverts (PushedCommit.reverted_number): OpenRLHF's
-- maintainers reverted #524, #581 and #725 by pushing `git revert`, and those PRs read as never
-- reverted. NULL for a commit that reverts no PR, and in rows stored before the column, until
-- their weeks are ingested again.
ALTER TABLE pushed_commits ADD COLUMN reverted_number INTEGER;
COMMENT ON COLUMN pushed_commits.reverted_number IS 'The PR this commit reverts (`Revert "<title>"`, `This reverts commit <sha>` naming the PR''s commit), as the git source resolves it; NULL when it reverts none, and in rows stored before the column until their weeks are ingested again.';
