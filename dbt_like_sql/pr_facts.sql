-- materialized: view
-- description: One row per merged PR: modules, themes, importance, key flag, risks, and the PRs it reverts or that reverted it (as scoring found them).
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
),
reverts AS (
    SELECT repo, number, list(reverted_number ORDER BY reverted_number) AS reverts
    FROM {{ source('pr_reverts') }}
    GROUP BY repo, number
),
reverted AS (
    SELECT v.repo, v.reverted_number AS number, arg_min(v.number, p.merged_at) AS reverted_by
    FROM {{ source('pr_reverts') }} v
    JOIN {{ source('prs') }} p USING (repo, number)
    GROUP BY v.repo, v.reverted_number
)
SELECT p.repo, p.week_start, p.number, p.title, p.author, p.author_key, p.merged_at,
       p.additions, p.deletions, p.changed_files, p.is_revert, p.reverted_number,
       coalesce(m.modules, []) AS modules, coalesce(m.modules_predicted, false) AS modules_predicted,
       coalesce(t.themes, []) AS themes,
       s.importance, coalesce(s.is_key, false) AS is_key, s.pr_type,
       coalesce(r.risks, []) AS risks, coalesce(r.risk_count, 0) AS risk_count,
       coalesce(v.reverts, []) AS reverts, rv.reverted_by
FROM {{ source('prs') }} p
LEFT JOIN modules m USING (repo, number)
LEFT JOIN themes t USING (repo, number)
LEFT JOIN {{ source('pr_scores') }} s USING (repo, number)
LEFT JOIN risks r USING (repo, number)
LEFT JOIN reverts v USING (repo, number)
LEFT JOIN reverted rv USING (repo, number)
ORDER BY p.repo, p.week_start, p.number
