-- materialized: view
-- description: PRs per theme and week, with the previous week's count (previous_prs) and the change.
SELECT repo, week_start, name AS theme, prs, previous_prs, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'theme'
ORDER BY repo, week_start, theme
