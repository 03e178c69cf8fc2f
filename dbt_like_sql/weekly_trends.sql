-- materialized: view
-- description: PRs per module and per theme in each week (prs), with the previous week's count (previous_prs) and the change (NULL where the previous week has no report, as the report takes it: the first week, a gap, a week ingested but not reported; a drop to zero shows as a row too, in a week without PRs as well). Modules and themes are counted as stored: type-like tags (verl's misc) have rows here, though the report's table leaves them out, and so do the themes the report does not count (the repository's subject, vllm-ascend's NPU/Ascend; a theme one of its own modules stands for, vllm-ascend's CI/infrastructure beside ci); previous_prs counts the previous week's labels, not what its report counted (weekly_counts). A PR with several modules (themes) counts once under each, so a sum of prs over names counts it as often.
WITH labels AS (
    SELECT repo, week_start, 'module' AS kind, module AS name, number FROM {{ source('pr_modules') }}
    UNION ALL
    SELECT repo, week_start, 'theme' AS kind, theme AS name, number FROM {{ source('pr_themes') }}
),
counts AS (
    SELECT repo, week_start, kind, name, count(DISTINCT number) AS prs
    FROM labels
    GROUP BY repo, week_start, kind, name
),
grid AS (
    SELECT repo, week_start, kind, name FROM counts
    UNION
    SELECT repo, week_start + INTERVAL 7 DAY, kind, name FROM counts
    WHERE (repo, week_start + INTERVAL 7 DAY) IN (SELECT repo, week_start FROM {{ ref('stored_weeks') }})
)
SELECT g.repo, CAST(g.week_start AS DATE) AS week_start, g.kind, g.name,
       coalesce(c.prs, 0) AS prs,
       -- NULL when the previous week has no report: unknown, as the report takes it
       CASE WHEN r.week_start IS NOT NULL THEN coalesce(prev.prs, 0) END AS previous_prs,
       coalesce(c.prs, 0)
           - CASE WHEN r.week_start IS NOT NULL THEN coalesce(prev.prs, 0) END AS change
FROM grid g
LEFT JOIN (SELECT DISTINCT repo, week_start FROM {{ source('weekly_counts') }}) r
       ON r.repo = g.repo AND r.week_start = g.week_start - INTERVAL 7 DAY
LEFT JOIN counts c
       ON c.repo = g.repo AND c.week_start = g.week_start AND c.kind = g.kind AND c.name = g.name
LEFT JOIN counts prev
       ON prev.repo = g.repo AND prev.week_start = g.week_start - INTERVAL 7 DAY
      AND prev.kind = g.kind AND prev.name = g.name
ORDER BY g.repo, g.week_start, g.kind, g.name
