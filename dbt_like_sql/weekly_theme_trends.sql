-- materialized: view
-- description: PRs per theme and week, with the previous week's count and the change.
WITH counts AS (
    SELECT repo, week_start, theme, count(DISTINCT number) AS pr_count
    FROM {{ source('pr_themes') }}
    GROUP BY repo, week_start, theme
),
grid AS (
    SELECT repo, week_start, theme FROM counts
    UNION
    SELECT repo, week_start + INTERVAL 7 DAY, theme FROM counts
    WHERE (repo, week_start + INTERVAL 7 DAY) IN (SELECT DISTINCT repo, week_start FROM {{ source('prs') }})
)
SELECT g.repo, CAST(g.week_start AS DATE) AS week_start, g.theme,
       coalesce(c.pr_count, 0) AS pr_count,
       coalesce(prev.pr_count, 0) AS previous_week,
       coalesce(c.pr_count, 0) - coalesce(prev.pr_count, 0) AS change
FROM grid g
LEFT JOIN counts c ON c.repo = g.repo AND c.week_start = g.week_start AND c.theme = g.theme
LEFT JOIN counts prev
       ON prev.repo = g.repo AND prev.week_start = g.week_start - INTERVAL 7 DAY
      AND prev.theme = g.theme
