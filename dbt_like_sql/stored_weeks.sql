-- materialized: view
-- description: Every week the warehouse holds for a repository, with or without PRs: the weeks of its PRs and of its reports (a week without PRs still has its report). The weekly models list their weeks from it, so a week without PRs is a row of zeros, not a gap.
SELECT DISTINCT repo, week_start FROM {{ source('prs') }}
UNION
SELECT DISTINCT repo, week_start FROM {{ source('weekly_counts') }}
ORDER BY repo, week_start
