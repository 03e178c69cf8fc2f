-- When each stage last stored a week: its PRs (raw_prs), reviews (review_threads), module
-- labels, scores and report, each row written in the transaction of what it dates. A week
-- whose PRs were stored after its analysis (a range run failing partway, a process killed
-- between stages) is analysed again by the next run. Weeks stored before this table existed
-- have no rows until they run again.
CREATE TABLE week_stages (
    repo       VARCHAR     NOT NULL,
    week_start DATE        NOT NULL,
    stage      VARCHAR     NOT NULL CHECK (stage IN ('ingest', 'reviews', 'modules', 'scores', 'report')),
    stored_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (repo, week_start, stage)
);
