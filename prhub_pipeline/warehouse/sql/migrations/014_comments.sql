-- What each table holds, and what its less plain columns mean, where a SQL user looks
-- (`SELECT table_name, table_comment FROM information_schema.tables`, `duckdb_columns()`'s
-- `comment`): README's Tables section, in short. The column names said nothing of which
-- time zone a week is cut in, nor of what a NULL stands for (`created_at` is NULL for every
-- PR the git source read).
COMMENT ON TABLE prs IS 'One row per merged PR, key (repo, number).';
COMMENT ON COLUMN prs.week_start IS 'The Monday of the week, in the configured timezone, that the PR merged in (date_trunc(''week'', merged_at) is UTC''s and can name another week).';
COMMENT ON COLUMN prs.merged_at IS 'When the PR merged, UTC (the git source: its commit''s committer date).';
COMMENT ON COLUMN prs.created_at IS 'When the PR was opened, UTC; NULL with the git source, which does not know.';
COMMENT ON COLUMN prs.author IS 'The name the author signed with; NULL for a deleted account.';
COMMENT ON COLUMN prs.author_key IS 'Who the author is whatever name they used: the GitHub login, lowercased, or with the git source a noreply address''s login, else the email, lowercased; NULL in rows stored before the column existed.';
COMMENT ON COLUMN prs.merged_by IS 'Who merged the PR; NULL with the git source.';
COMMENT ON COLUMN prs.base_branch IS 'The branch the PR merged into; NULL with the git source.';
COMMENT ON COLUMN prs.reverted_number IS 'The PR the source read this revert undoes (one); pr_reverts holds every PR scoring found it undoes.';
COMMENT ON COLUMN prs.source IS 'git or github: only github has review data.';
COMMENT ON TABLE pr_files IS 'The files each PR touched.';
COMMENT ON COLUMN pr_files.status IS 'added, modified, removed, renamed or copied.';
COMMENT ON COLUMN pr_files.additions IS 'Lines added; NULL for a binary file.';
COMMENT ON COLUMN pr_files.deletions IS 'Lines deleted; NULL for a binary file.';
COMMENT ON TABLE pr_config_files IS 'Each edited or new configuration file, dependency manifest or YAML CI file whose settings ingest compared before and after the PR.';
COMMENT ON TABLE pr_setting_changes IS 'Each setting a PR changed (before and after set), added (before NULL) or removed (after NULL).';
COMMENT ON TABLE github_pages IS 'The raw GraphQL responses of a week (github source), in request order.';
COMMENT ON TABLE release_tags IS 'The version tags dated in the week.';
COMMENT ON COLUMN release_tags.noticed_at IS 'When a run first stored the tag, UTC.';
COMMENT ON TABLE pushed_commits IS 'The week''s commits that landed on the branch without naming a PR (git source).';
COMMENT ON TABLE late_prs IS 'PRs the clone has for a stored week that it was stored without; emptied when the week is reported again.';
COMMENT ON TABLE reviews IS 'Submitted reviews (github source).';
COMMENT ON COLUMN reviews.author IS 'NULL for a deleted account.';
COMMENT ON TABLE review_threads IS 'Review threads (github source).';
COMMENT ON TABLE review_thread_comments IS 'The comments of review threads (github source); thread_id joins review_threads.';
COMMENT ON TABLE pr_comments IS 'The PR conversation''s comments (github source); position orders them.';
COMMENT ON TABLE module_models IS 'Each repository''s newest module classifiers.';
COMMENT ON TABLE pr_modules IS 'The modules of each PR, one row per PR and module.';
COMMENT ON COLUMN pr_modules.origin IS 'title or label (the PR''s own tags), or model (the classifier''s guess).';
COMMENT ON TABLE pr_themes IS 'The themes of each PR, one row per PR and theme.';
COMMENT ON TABLE pr_unknown_tags IS 'Title tags outside the module list.';
COMMENT ON TABLE pr_scores IS 'Each PR''s importance (0-10) and what makes it up.';
COMMENT ON COLUMN pr_scores.is_key IS 'Importance at least the repository''s key_threshold.';
COMMENT ON COLUMN pr_scores.pr_type IS 'feat, fix, refactor, perf, chore, doc, test, revert or other.';
COMMENT ON COLUMN pr_scores.fix_impacts IS 'What a fix says the bug caused: crash, oom, hang, wrong_result, data_loss, security, regression, ignored_setting.';
COMMENT ON TABLE pr_risks IS 'One row per risk flag, the report''s risk observations (README names the kinds).';
COMMENT ON COLUMN pr_risks.risk IS 'The kind: revert, reverted, breaking_change, unresolved_review (high); core_without_tests, tests_disabled, no_approval, large_change, cross_cutting, config_default_change, dependency_change, repeated_fix (medium); known_gap, docker_change, ci_change (low).';
COMMENT ON TABLE pr_reverts IS 'One row per revert and PR it undoes, as scoring identifies them.';
COMMENT ON TABLE weekly_reports IS 'Each reported week''s report, one row per language (take one lang before adding up counts).';
COMMENT ON TABLE weekly_counts IS 'PRs per module and theme of each reported week, as its report counted them; sum only one kind.';
COMMENT ON COLUMN weekly_counts.kind IS 'module, theme, or all for the week''s total (name '''').';
COMMENT ON TABLE week_stages IS 'When each stage last stored the week, UTC.';
COMMENT ON TABLE schema_migrations IS 'The schema versions applied to this file.';
COMMENT ON TABLE sql_models IS 'Every relation a SQL model made (dbt_like_sql/).';
