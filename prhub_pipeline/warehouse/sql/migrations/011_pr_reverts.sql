-- The PRs each week's reverts undo, as scoring identifies them: `prs.reverted_number` holds
-- what the source read (one PR), while a revert of several PRs (`Revert precompile PRs
-- (#3107, #3178)`) or one that names its PR only in hand-written text is resolved later.
-- One row per revert and reverted PR, in the revert's week.
CREATE TABLE pr_reverts (
    repo            VARCHAR NOT NULL,
    number          INTEGER NOT NULL,   -- the revert
    week_start      DATE    NOT NULL,
    reverted_number INTEGER NOT NULL,
    PRIMARY KEY (repo, number, reverted_number)
);
CREATE INDEX pr_reverts_partition ON pr_reverts (repo, week_start);

-- Weeks scored before this table existed: what the source read, until they are scored again.
INSERT INTO pr_reverts
SELECT p.repo, p.number, p.week_start, p.reverted_number
FROM prs p
WHERE p.is_revert AND p.reverted_number IS NOT NULL
  AND EXISTS (SELECT 1 FROM pr_scores s WHERE s.repo = p.repo AND s.number = p.number);
