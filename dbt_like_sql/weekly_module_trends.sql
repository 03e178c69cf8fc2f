-- materialized: view
-- description: PRs per module and week, with the previous week's count (previous_prs) and the change.
SELECT repo, week_start, name AS module, prs, previous_prs, change
FROM {{ ref('weekly_trends') }}
WHERE kind = 'module'
ORDER BY repo, week_start, module
