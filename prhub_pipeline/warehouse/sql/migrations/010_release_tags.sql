-- Version tags created in a week (`v0.9.0`), as the sources read them from the repository's
-- tags: the reports say what was released. The tag's own date decides its week (an annotated
-- tag's, else its commit's); the commit may be on a release branch, off the reported branch.
-- `noticed_at` is when a run first stored the tag: a tag pushed after its week was reported
-- (a lightweight tag carries its commit's date) makes the weekly schedule run that week again.
CREATE TABLE release_tags (
    repo       VARCHAR     NOT NULL,
    week_start DATE        NOT NULL,
    name       VARCHAR     NOT NULL,
    sha        VARCHAR     NOT NULL,
    tagged_at  TIMESTAMPTZ NOT NULL,
    noticed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (repo, week_start, name)
);
