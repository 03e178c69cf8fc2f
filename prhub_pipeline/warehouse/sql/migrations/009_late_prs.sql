-- PRs a git clone holds for a week already stored without them: pushed after the week was
-- read (a local merge pushed on Monday), or missed by a clone that could not be updated. The
-- weekly schedule runs such a week again, which empties its rows here.
CREATE TABLE late_prs (
    repo       VARCHAR     NOT NULL,
    week_start DATE        NOT NULL,
    number     INTEGER     NOT NULL,
    merged_at  TIMESTAMPTZ NOT NULL,
    noticed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (repo, week_start, number)
);
