-- Whether a module names an area, as the reports decide (areas_of): the warehouse keeps a
-- repository's title tags that only say a kind of change or a status as modules, and the
-- reports leave them out, but a SQL user could not. AReaL's weekly_module_trends listed
-- `feature` (44 PRs) and `fix` (41) as its top modules, which no report table has.
-- Rows stored before the column hold NULL until the repository's next report run.
ALTER TABLE display_names ADD COLUMN is_area BOOLEAN;
COMMENT ON COLUMN display_names.is_area IS 'For a module, whether it says where a change happened, as the reports take it: false for a tag that only says a kind of change or a status ([Fix], [Feature], [Bugfix], [misc], [WIP]), which the reports leave out of their module sections and trend tables. NULL for a theme, and in rows stored before the column (unknown until the repository''s next report run).';
