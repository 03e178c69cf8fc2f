-- Merged pull requests and the files they touched, one row set per (repo, week_start) partition.
CREATE TABLE prs (
    repo             VARCHAR     NOT NULL,
    number           INTEGER     NOT NULL,
    week_start       DATE        NOT NULL,
    title            VARCHAR     NOT NULL,
    body             VARCHAR     NOT NULL,
    author           VARCHAR,
    co_authors       VARCHAR[]   NOT NULL,
    labels           VARCHAR[]   NOT NULL,
    created_at       TIMESTAMPTZ,
    merged_at        TIMESTAMPTZ NOT NULL,
    merged_by        VARCHAR,
    base_branch      VARCHAR,
    merge_commit_sha VARCHAR,
    additions        INTEGER     NOT NULL,
    deletions        INTEGER     NOT NULL,
    changed_files    INTEGER     NOT NULL,
    is_revert        BOOLEAN     NOT NULL,
    reverted_sha     VARCHAR,
    reverted_number  INTEGER,
    source           VARCHAR     NOT NULL,
    PRIMARY KEY (repo, number)
);

CREATE TABLE pr_files (
    repo          VARCHAR NOT NULL,
    number        INTEGER NOT NULL,
    week_start    DATE    NOT NULL,
    path          VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,
    previous_path VARCHAR,
    additions     INTEGER,
    deletions     INTEGER
);

CREATE INDEX pr_files_partition ON pr_files (repo, week_start);
CREATE INDEX prs_partition ON prs (repo, week_start);
