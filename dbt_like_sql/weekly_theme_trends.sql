-- materialized: view
-- description: PRs per theme and week (the theme also as the English and Chinese reports name it), with the previous week's count (previous_prs) and the change.
SELECT repo, week_start, name AS theme, display_name_en, display_name_zh, prs, previous_prs, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'theme'
ORDER BY repo, week_start, theme
