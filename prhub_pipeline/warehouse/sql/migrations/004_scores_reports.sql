-- Importance scores, risk flags and the rendered weekly reports, per (repo, week_start) partition.
CREATE TABLE pr_scores (
    repo        VARCHAR NOT NULL,
    number      INTEGER NOT NULL,
    week_start  DATE    NOT NULL,
    importance  DOUBLE  NOT NULL,   -- 0-10, one decimal, calibrated on the repository's history
    raw_score   DOUBLE  NOT NULL,   -- sum of the parts
    is_key      BOOLEAN NOT NULL,
    pr_type     VARCHAR NOT NULL,
    breaking    BOOLEAN NOT NULL,
    fix_impacts VARCHAR[] NOT NULL,
    parts       JSON    NOT NULL,   -- {"type": 1.8, "size": 2.7, ...}: parts->>'core'
    PRIMARY KEY (repo, number)
);
CREATE INDEX pr_scores_partition ON pr_scores (repo, week_start);

CREATE TABLE pr_risks (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    risk       VARCHAR NOT NULL,
    severity   VARCHAR NOT NULL,
    detail     VARCHAR NOT NULL,    -- one line of evidence, English
    evidence   JSON    NOT NULL     -- related PRs/issues, paths, review asks, lines, modules
);
CREATE INDEX pr_risks_partition ON pr_risks (repo, week_start);

CREATE TABLE weekly_reports (
    repo         VARCHAR     NOT NULL,
    week_start   DATE        NOT NULL,
    lang         VARCHAR     NOT NULL,
    markdown     VARCHAR     NOT NULL,
    html         VARCHAR     NOT NULL,
    generated_at TIMESTAMPTZ NOT NULL,
    pr_count     INTEGER     NOT NULL,
    key_pr_count INTEGER     NOT NULL,
    PRIMARY KEY (repo, week_start, lang)
);

-- PRs per module and theme in each reported week: the next week's report compares against it.
CREATE TABLE weekly_counts (
    repo       VARCHAR NOT NULL,
    week_start DATE    NOT NULL,
    kind       VARCHAR NOT NULL,    -- 'all', 'module' or 'theme'
    name       VARCHAR NOT NULL,    -- '' for kind 'all'
    pr_count   INTEGER NOT NULL
);
CREATE INDEX weekly_counts_partition ON weekly_counts (repo, week_start);
