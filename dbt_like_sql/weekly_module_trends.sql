-- materialized: view
-- description: PRs per module and week (the module also as the English and Chinese reports name it), with the previous week's count (previous_prs) and the change.
SELECT repo, week_start, name AS module, display_name_en, display_name_zh, prs, previous_prs, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'module'
ORDER BY repo, week_start, module
