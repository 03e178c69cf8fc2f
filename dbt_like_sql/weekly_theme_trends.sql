-- materialized: view
-- description: PRs per theme and week, with the previous week's count and the change.
SELECT repo, week_start, name AS theme, pr_count, previous_week, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'theme'
ORDER BY repo, week_start, theme
