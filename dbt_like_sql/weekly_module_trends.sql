-- materialized: view
-- description: PRs per module and week, with the previous week's count and the change.
SELECT repo, week_start, name AS module, pr_count, previous_week, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'module'
ORDER BY repo, week_start, module
