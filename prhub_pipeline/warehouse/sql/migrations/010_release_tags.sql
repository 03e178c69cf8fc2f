-- Version tags created in a week (`v0.9.0`), as the git source reads them from the clone's
-- tags: the reports say what was released. The tag's own date decides its week (an annotated
-- tag's, else its commit's); the commit may be on a release branch, off the reported branch.
CREATE TABLE release_tags (
    repo       VARCHAR     NOT NULL,
    week_start DATE        NOT NULL,
    name       VARCHAR     NOT NULL,
    sha        VARCHAR     NOT NULL,
    tagged_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (repo, week_start, name)
);
