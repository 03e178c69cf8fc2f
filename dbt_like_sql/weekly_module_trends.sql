-- materialized: view
-- description: PRs per module and week, with the previous week's count and the change.
WITH counts AS (
    SELECT repo, week_start, module, count(DISTINCT number) AS pr_count
    FROM {{ source('pr_modules') }}
    GROUP BY repo, week_start, module
),
grid AS (
    -- every module a week or its previous week saw, so a drop to zero shows as a row too
    SELECT repo, week_start, module FROM counts
    UNION
    SELECT repo, week_start + INTERVAL 7 DAY, module FROM counts
    WHERE (repo, week_start + INTERVAL 7 DAY) IN (SELECT DISTINCT repo, week_start FROM {{ source('prs') }})
)
SELECT g.repo, CAST(g.week_start AS DATE) AS week_start, g.module,
       coalesce(c.pr_count, 0) AS pr_count,
       coalesce(prev.pr_count, 0) AS previous_week,
       coalesce(c.pr_count, 0) - coalesce(prev.pr_count, 0) AS change
FROM grid g
LEFT JOIN counts c ON c.repo = g.repo AND c.week_start = g.week_start AND c.module = g.module
LEFT JOIN counts prev
       ON prev.repo = g.repo AND prev.week_start = g.week_start - INTERVAL 7 DAY
      AND prev.module = g.module
