-- The names the reports give modules and themes, per language: the tables and models hold the
-- keys (vllm-ascend's `kv_pool`, verl's `ckpt`), the reports `KV Pool` and Checkpointing/检查点
-- from the repository's `modules.display_names`, and a SQL user could not map one to the other.
-- Each report run replaces its repository's rows, in the transaction of a week's report.
CREATE TABLE display_names (
    repo         VARCHAR NOT NULL,
    kind         VARCHAR NOT NULL CHECK (kind IN ('module', 'theme')),
    name         VARCHAR NOT NULL,   -- pr_modules.module or pr_themes.theme
    lang         VARCHAR NOT NULL,
    display_name VARCHAR NOT NULL,
    PRIMARY KEY (repo, kind, name, lang)
);
COMMENT ON TABLE display_names IS 'The name a report in each language gives each stored module and theme, as of the repository''s last report run: join pr_modules.module (pr_themes.theme, weekly_counts.name) to name with the kind and a lang.';
COMMENT ON COLUMN display_names.kind IS 'module or theme.';
COMMENT ON COLUMN display_names.name IS 'The key the tables and models hold: pr_modules.module or pr_themes.theme.';
COMMENT ON COLUMN display_names.lang IS 'zh or en, the report''s language.';
COMMENT ON COLUMN display_names.display_name IS 'The configured modules.display_names entry, else the usual or most written spelling; a week''s report may add what tells a name apart that week ("Docker-related work", "doc (also the Docs theme)").';
