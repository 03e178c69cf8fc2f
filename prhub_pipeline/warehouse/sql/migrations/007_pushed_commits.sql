-- Commits that landed on the branch without naming a PR (pushed straight to it), per week, as
-- the git source reads them. No report covers them: reports say how many there were.
CREATE TABLE pushed_commits (
    repo         VARCHAR     NOT NULL,
    week_start   DATE        NOT NULL,
    sha          VARCHAR     NOT NULL,
    committed_at TIMESTAMPTZ NOT NULL,
    author       VARCHAR,
    subject      VARCHAR     NOT NULL
);
CREATE INDEX pushed_commits_partition ON pushed_commits (repo, week_start);
