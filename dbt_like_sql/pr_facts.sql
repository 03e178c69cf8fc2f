-- materialized: view
-- description: One row per merged PR: modules, themes, importance, key flag and risks together.
WITH modules AS (
    SELECT repo, number, list(module ORDER BY confidence DESC, module) AS modules,
           bool_or(origin = 'model') AS modules_predicted
    FROM {{ source('pr_modules') }}
    GROUP BY repo, number
),
themes AS (
    SELECT repo, number, list(theme ORDER BY theme) AS themes
    FROM {{ source('pr_themes') }}
    GROUP BY repo, number
),
risks AS (
    SELECT repo, number, list(DISTINCT risk ORDER BY risk) AS risks, count(*) AS risk_count
    FROM {{ source('pr_risks') }}
    GROUP BY repo, number
)
SELECT p.repo, p.week_start, p.number, p.title, p.author, p.author_key, p.merged_at,
       p.additions, p.deletions, p.changed_files, p.is_revert, p.reverted_number,
       coalesce(m.modules, []) AS modules, coalesce(m.modules_predicted, false) AS modules_predicted,
       coalesce(t.themes, []) AS themes,
       s.importance, coalesce(s.is_key, false) AS is_key, s.pr_type,
       coalesce(r.risks, []) AS risks, coalesce(r.risk_count, 0) AS risk_count
FROM {{ source('prs') }} p
LEFT JOIN modules m USING (repo, number)
LEFT JOIN themes t USING (repo, number)
LEFT JOIN {{ source('pr_scores') }} s USING (repo, number)
LEFT JOIN risks r USING (repo, number)
