-- The views and tables the SQL models made: a model whose file is gone (removed or renamed)
-- is dropped at the next models run rather than left looking current, and only a relation
-- named here is ever dropped that way (never a pipeline table, nor a user's own view).
CREATE TABLE sql_models (
    name         VARCHAR     NOT NULL PRIMARY KEY,
    materialized VARCHAR     NOT NULL,   -- view or table
    stored_at    TIMESTAMPTZ NOT NULL    -- when a run last made it
);

-- A warehouse the models wrote before this table existed: the relations of the models
-- prhub shipped then are models too, so one of them whose file is gone by the next run goes.
INSERT INTO sql_models
SELECT table_name, CASE WHEN table_type = 'VIEW' THEN 'view' ELSE 'table' END, now()
FROM information_schema.tables
WHERE table_schema = 'main' AND table_name IN ('author_activity', 'author_identities', 'pr_authors', 'pr_facts',
                     'review_health', 'reviewer_activity', 'risk_backlog', 'stored_weeks',
                     'weekly_contributors', 'weekly_module_trends', 'weekly_theme_trends',
                     'weekly_trends');
