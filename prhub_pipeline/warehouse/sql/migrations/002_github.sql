-- The github source: raw GraphQL responses (landing) and the review data built from them.
-- Every table is partitioned by (repo, week_start) and carries the PR `number`.

-- One row per successful request, in request order, so later stages rebuild records from
-- here and never re-fetch. `variables` never holds the token (it travels in a header only).
CREATE TABLE github_pages (
    repo        VARCHAR     NOT NULL,
    week_start  DATE        NOT NULL,
    seq         INTEGER     NOT NULL,
    query_name  VARCHAR     NOT NULL,
    variables   JSON        NOT NULL,
    response    JSON        NOT NULL,
    range_start TIMESTAMPTZ,           -- the merge-time range a search page covers, [start, end)
    range_end   TIMESTAMPTZ
);

CREATE TABLE reviews (
    repo          VARCHAR     NOT NULL,
    week_start    DATE        NOT NULL,
    number        INTEGER     NOT NULL,
    position      INTEGER     NOT NULL,  -- order within the PR, as GitHub lists them
    review_id     VARCHAR     NOT NULL,
    author        VARCHAR,               -- NULL for deleted accounts
    author_is_bot BOOLEAN     NOT NULL,
    state         VARCHAR     NOT NULL,  -- APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED
    body          VARCHAR     NOT NULL,
    submitted_at  TIMESTAMPTZ
);

CREATE TABLE review_threads (
    repo          VARCHAR NOT NULL,
    week_start    DATE    NOT NULL,
    number        INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    thread_id     VARCHAR NOT NULL,
    path          VARCHAR,
    line          INTEGER,
    is_resolved   BOOLEAN NOT NULL,
    is_outdated   BOOLEAN NOT NULL,
    resolved_by   VARCHAR,
    comment_count INTEGER NOT NULL
);

CREATE TABLE review_thread_comments (
    repo          VARCHAR     NOT NULL,
    week_start    DATE        NOT NULL,
    number        INTEGER     NOT NULL,
    thread_id     VARCHAR     NOT NULL,
    position      INTEGER     NOT NULL,  -- order within the thread; 0 started it
    comment_id    VARCHAR     NOT NULL,
    author        VARCHAR,
    author_is_bot BOOLEAN     NOT NULL,
    is_pr_author  BOOLEAN     NOT NULL,
    body          VARCHAR     NOT NULL,
    created_at    TIMESTAMPTZ
);

CREATE TABLE pr_comments (
    repo          VARCHAR     NOT NULL,
    week_start    DATE        NOT NULL,
    number        INTEGER     NOT NULL,
    position      INTEGER     NOT NULL,
    comment_id    VARCHAR     NOT NULL,
    author        VARCHAR,
    author_is_bot BOOLEAN     NOT NULL,
    is_pr_author  BOOLEAN     NOT NULL,
    body          VARCHAR     NOT NULL,
    created_at    TIMESTAMPTZ
);

CREATE INDEX github_pages_partition ON github_pages (repo, week_start);
CREATE INDEX reviews_partition ON reviews (repo, week_start);
CREATE INDEX review_threads_partition ON review_threads (repo, week_start);
CREATE INDEX review_thread_comments_partition ON review_thread_comments (repo, week_start);
CREATE INDEX pr_comments_partition ON pr_comments (repo, week_start);
