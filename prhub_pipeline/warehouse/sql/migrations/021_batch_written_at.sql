-- Of a PR that landed in a batch long after it was written (PullRequest.batch_written_at):
-- when it was written. ColossalAI rebased a branch of 54 PRs onto main on
-- 2023-08-15, and that week's report read 57 PRs, 41 of them key, with nothing to say why.
-- The git source reads it from the landing commit's author date; NULL for a PR that landed
-- alone, with the github source, and in rows stored before the column, until their weeks are
-- ingested again.
ALTER TABLE prs ADD COLUMN batch_written_at TIMESTAMPTZ;
COMMENT ON COLUMN prs.batch_written_at IS 'Of a PR that landed in a batch long after it was written (a rebased branch: 3 or more PR landings of one committer time, the earliest written a week or more before): its commit''s author date; NULL for a PR that landed alone, with the github source, and in rows stored before the column existed, until their weeks are ingested again.';
-- A batch keeps its BATCH_KEY_LIMIT highest key PRs (modelling.scoring.importance): the
-- pipeline branch made 40 of its 54 PRs key.
COMMENT ON COLUMN pr_scores.is_key IS 'Importance at least the repository''s key_threshold; of a batch of PRs landed long after they were written (prs.batch_written_at), only its 10 highest.';
