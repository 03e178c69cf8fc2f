-- materialized: view
-- description: PRs per module and week (the module also as the English and Chinese reports name it), with the previous week's count (previous_prs) and the change. is_area: whether the module names an area, as the reports decide: false for a tag that only says a kind of change or a status (verl's misc, AReaL's feature and fix), which the reports leave out of their module sections and trend tables (WHERE is_area keeps their rows); NULL until a report run of this prhub stored it.
SELECT repo, week_start, name AS module, display_name_en, display_name_zh, is_area,
       prs, previous_prs, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'module'
ORDER BY repo, week_start, module
