-- materialized: view
-- description: Every author's merged PRs, lines changed, active weeks and key PRs, most active first.
SELECT repo, author,
       count(*) AS prs,
       sum(additions + deletions) AS lines_changed,
       count(DISTINCT week_start) AS active_weeks,
       min(week_start) AS first_week,
       max(week_start) AS last_week,
       count(*) FILTER (WHERE is_key) AS key_prs
FROM {{ ref('pr_facts') }}
WHERE author IS NOT NULL
GROUP BY repo, author
ORDER BY repo, prs DESC, author
