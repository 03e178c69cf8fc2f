-- materialized: view
-- description: One row per merged PR: modules, themes (each also as the English and Chinese reports name them: NULL until a report run of this prhub stored the names), areas (its modules that name an area, as the reports group PRs: without tags that only say a kind of change or a status, such as fix or misc; NULL until a report run of this prhub stored which do), importance, key flag, risks, and the PRs it reverts or that reverted it (as scoring found them), and the first commit pushed without a PR that reverted it (as the git source read it; a PR reverted both ways has both).
-- The names are display_names', one row per key and language (its primary key): a list is
-- NULL, not a list with holes, when a name is missing.
WITH modules AS (
    SELECT m.repo, m.number, list(m.module ORDER BY m.confidence DESC, m.module) AS modules,
           CASE WHEN count(en.display_name) = count(*)
                THEN list(en.display_name ORDER BY m.confidence DESC, m.module) END
               AS module_names_en,
           CASE WHEN count(zh.display_name) = count(*)
                THEN list(zh.display_name ORDER BY m.confidence DESC, m.module) END
               AS module_names_zh,
           -- The reports' notion (display_names.is_area), unknown for the whole list when it is
           -- for one module, as the names are.
           CASE WHEN count(en.is_area) = count(*)
                THEN coalesce(list(m.module ORDER BY m.confidence DESC, m.module)
                                  FILTER (WHERE en.is_area), []) END AS areas,
           bool_or(m.origin = 'model') AS modules_predicted
    FROM {{ source('pr_modules') }} m
    LEFT JOIN {{ source('display_names') }} en
           ON en.repo = m.repo AND en.kind = 'module' AND en.name = m.module AND en.lang = 'en'
    LEFT JOIN {{ source('display_names') }} zh
           ON zh.repo = m.repo AND zh.kind = 'module' AND zh.name = m.module AND zh.lang = 'zh'
    GROUP BY m.repo, m.number
),
themes AS (
    SELECT t.repo, t.number, list(t.theme ORDER BY t.theme) AS themes,
           CASE WHEN count(en.display_name) = count(*)
                THEN list(en.display_name ORDER BY t.theme) END AS theme_names_en,
           CASE WHEN count(zh.display_name) = count(*)
                THEN list(zh.display_name ORDER BY t.theme) END AS theme_names_zh
    FROM {{ source('pr_themes') }} t
    LEFT JOIN {{ source('display_names') }} en
           ON en.repo = t.repo AND en.kind = 'theme' AND en.name = t.theme AND en.lang = 'en'
    LEFT JOIN {{ source('display_names') }} zh
           ON zh.repo = t.repo AND zh.kind = 'theme' AND zh.name = t.theme AND zh.lang = 'zh'
    GROUP BY t.repo, t.number
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
),
-- A revert pushed straight to the branch is no PR, so pr_reverts has no row of it: OpenRLHF
-- reverted #524, #581 and #725 by pushing `git revert`.
reverted_by_push AS (
    SELECT repo, reverted_number AS number, arg_min(sha, committed_at) AS reverted_by_commit
    FROM {{ source('pushed_commits') }}
    WHERE reverted_number IS NOT NULL
    GROUP BY repo, reverted_number
)
SELECT p.repo, p.week_start, p.number, p.title, p.author, p.author_key, p.merged_at,
       p.additions, p.deletions, p.changed_files, p.is_revert, p.reverted_number,
       coalesce(m.modules, []) AS modules,
       CASE WHEN m.number IS NULL THEN [] ELSE m.module_names_en END AS module_names_en,
       CASE WHEN m.number IS NULL THEN [] ELSE m.module_names_zh END AS module_names_zh,
       CASE WHEN m.number IS NULL THEN [] ELSE m.areas END AS areas,
       coalesce(m.modules_predicted, false) AS modules_predicted,
       coalesce(t.themes, []) AS themes,
       CASE WHEN t.number IS NULL THEN [] ELSE t.theme_names_en END AS theme_names_en,
       CASE WHEN t.number IS NULL THEN [] ELSE t.theme_names_zh END AS theme_names_zh,
       s.importance, coalesce(s.is_key, false) AS is_key, s.pr_type,
       coalesce(r.risks, []) AS risks, coalesce(r.risk_count, 0) AS risk_count,
       coalesce(v.reverts, []) AS reverts, rv.reverted_by, rp.reverted_by_commit
FROM {{ source('prs') }} p
LEFT JOIN modules m USING (repo, number)
LEFT JOIN themes t USING (repo, number)
LEFT JOIN {{ source('pr_scores') }} s USING (repo, number)
LEFT JOIN risks r USING (repo, number)
LEFT JOIN reverts v USING (repo, number)
LEFT JOIN reverted rv USING (repo, number)
LEFT JOIN reverted_by_push rp USING (repo, number)
ORDER BY p.repo, p.week_start, p.number
