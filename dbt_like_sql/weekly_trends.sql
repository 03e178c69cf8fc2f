-- materialized: view
-- description: PRs per module and per theme in each week (prs), the name as the English and Chinese reports give it (display_name_en, display_name_zh: NULL until a report run of this prhub stored the names), with the previous week's count (previous_prs) and the change (NULL where the previous week has no report, as the report takes it: the first week, a gap, a week ingested but not reported). Every stored week from a name's first PR on is a row, zeros in a quiet week, so an average over rows is one per week. Modules and themes are counted as stored: tags that only say a kind of change or a status (verl's misc, AReaL's feature and fix) have rows here, though the report's table leaves them out: is_area is false for them and true for a module that names an area, NULL for a theme and for a module whose names no report run of this prhub stored (unknown), so WHERE kind = 'theme' OR is_area leaves them out as the report does. The themes the report does not count have rows too (the repository's subject, vllm-ascend's NPU/Ascend; a theme one of its own modules stands for, vllm-ascend's CI/infrastructure beside ci); previous_prs counts the previous week's labels, as the report's Last week does, not what its report counted (weekly_counts). A PR with several modules (themes) counts once under each, so a sum of prs over names counts it as often.
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
-- Every stored week from a name's first on is a row, a quiet one too (zeros), as the other
-- weekly models list every week: with a row only where it or the week before had PRs, an
-- average over rows skipped the quiet weeks (verl's ckpt in 2026: 1.5 PRs a week over its 14
-- rows, 1.1 over the 19 weeks).
grid AS (
    SELECT n.repo, s.week_start, n.kind, n.name
    FROM (SELECT repo, kind, name, min(week_start) AS first_week FROM counts GROUP BY ALL) n
    JOIN {{ ref('stored_weeks') }} s ON s.repo = n.repo AND s.week_start >= n.first_week
)
SELECT g.repo, CAST(g.week_start AS DATE) AS week_start, g.kind, g.name,
       en.display_name AS display_name_en, zh.display_name AS display_name_zh,
       -- display_names holds it once per language, the same in each
       en.is_area,
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
-- display_names' primary key is (repo, kind, name, lang): one row each, no duplicates.
LEFT JOIN {{ source('display_names') }} en
       ON en.repo = g.repo AND en.kind = g.kind AND en.name = g.name AND en.lang = 'en'
LEFT JOIN {{ source('display_names') }} zh
       ON zh.repo = g.repo AND zh.kind = g.kind AND zh.name = g.name AND zh.lang = 'zh'
ORDER BY g.repo, g.week_start, g.kind, g.name
