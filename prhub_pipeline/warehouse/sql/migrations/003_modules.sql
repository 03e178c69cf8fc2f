-- Module labels, themes and unknown title tags, one row set per (repo, week_start) partition.
CREATE TABLE pr_modules (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    module     VARCHAR NOT NULL,
    origin     VARCHAR NOT NULL CHECK (origin IN ('title', 'label', 'model')),
    confidence DOUBLE  NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    PRIMARY KEY (repo, number, module)
);

CREATE TABLE pr_themes (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    theme      VARCHAR NOT NULL,
    PRIMARY KEY (repo, number, theme)
);

-- Title tags the repository's module list does not know: kept, so nobody loses them silently.
CREATE TABLE pr_unknown_tags (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    tag        VARCHAR NOT NULL,
    PRIMARY KEY (repo, number, tag)
);

CREATE INDEX pr_modules_partition ON pr_modules (repo, week_start);
CREATE INDEX pr_themes_partition ON pr_themes (repo, week_start);
CREATE INDEX pr_unknown_tags_partition ON pr_unknown_tags (repo, week_start);

-- Every trained module classifier, newest last; not partitioned by week. The payload is an
-- npz archive of arrays (never a pickle) and is loaded only when its sha256 matches.
CREATE TABLE module_models (
    repo          VARCHAR     NOT NULL,
    model_version VARCHAR     NOT NULL,
    trained_at    TIMESTAMPTZ NOT NULL,
    stored_at     TIMESTAMPTZ NOT NULL,
    payload       BLOB        NOT NULL,
    sha256        VARCHAR     NOT NULL,
    metrics       JSON        NOT NULL,
    PRIMARY KEY (repo, model_version)
);
