-- The settings each PR changed in its configuration files, compared at ingest.
-- pr_config_files: one row per compared file; comparable = false when a version could not be
-- read or parsed. pr_setting_changes: one row per setting whose value changed (before and
-- after set), that was added (before NULL) or removed (after NULL).
CREATE TABLE pr_config_files (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    path       VARCHAR NOT NULL,
    comparable BOOLEAN NOT NULL
);
CREATE INDEX pr_config_files_partition ON pr_config_files (repo, week_start);

CREATE TABLE pr_setting_changes (
    repo       VARCHAR NOT NULL,
    number     INTEGER NOT NULL,
    week_start DATE    NOT NULL,
    path       VARCHAR NOT NULL,
    key        VARCHAR NOT NULL,
    before     VARCHAR,
    after      VARCHAR
);
CREATE INDEX pr_setting_changes_partition ON pr_setting_changes (repo, week_start);
