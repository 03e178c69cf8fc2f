-- materialized: view
-- description: Per week (a week without PRs too): PRs reviewed and approved by people other than their author, reviewers, review threads, threads left unresolved at merge, PRs merged without approval, time to merge.
-- The rules are the report's and the risk flags': a review or thread comment counts when a
-- person other than the PR's author wrote it (a bot's approval approves nothing), and an
-- outdated thread (its code since changed) is not left unresolved.
WITH people_reviews AS (
    SELECT r.repo, r.number, r.author, r.state
    FROM {{ source('reviews') }} r
    JOIN {{ source('prs') }} p ON p.repo = r.repo AND p.number = r.number
    WHERE NOT r.author_is_bot AND NOT {{ bot_name('r.author') }}
      AND r.author IS DISTINCT FROM p.author
),
people_thread_comments AS (
    SELECT c.repo, c.number, c.author
    FROM {{ source('review_thread_comments') }} c
    JOIN {{ source('prs') }} p ON p.repo = c.repo AND p.number = c.number
    WHERE NOT c.author_is_bot AND NOT {{ bot_name('c.author') }}
      AND NOT c.is_pr_author AND c.author IS DISTINCT FROM p.author
),
reviewers AS (
    SELECT repo, number, author FROM people_reviews
    UNION ALL
    SELECT repo, number, author FROM people_thread_comments
),
per_pr AS (
    SELECT p.repo, p.week_start, p.number, p.source,
           epoch(p.merged_at - p.created_at) / 3600.0 AS hours_to_merge,
           (SELECT count(*) FROM {{ source('review_threads') }} t
             WHERE t.repo = p.repo AND t.number = p.number) AS threads,
           (SELECT count(*) FROM {{ source('review_threads') }} t
             WHERE t.repo = p.repo AND t.number = p.number
               AND NOT t.is_resolved AND NOT t.is_outdated) AS unresolved,
           (SELECT count(*) FROM people_reviews r
             WHERE r.repo = p.repo AND r.number = p.number AND r.state = 'APPROVED') AS approvals,
           EXISTS (SELECT 1 FROM reviewers v
                    WHERE v.repo = p.repo AND v.number = p.number) AS reviewed
    FROM {{ source('prs') }} p
),
weekly_reviewers AS (
    SELECT p.repo, p.week_start, count(DISTINCT v.author) AS reviewers
    FROM reviewers v
    JOIN {{ source('prs') }} p ON p.repo = v.repo AND p.number = v.number
    GROUP BY p.repo, p.week_start
),
-- Review figures are NULL for weeks whose source has no review data (git), never a false 0.
weekly AS (
    SELECT w.repo, w.week_start,
           count(*) AS prs,
           bool_and(source = 'github') AS review_data_available,
           CASE WHEN bool_and(source = 'github')
                THEN count(*) FILTER (WHERE reviewed) END AS reviewed_prs,
           CASE WHEN bool_and(source = 'github')
                THEN count(*) FILTER (WHERE approvals > 0) END AS approved_prs,
           CASE WHEN bool_and(source = 'github')
                THEN coalesce(any_value(r.reviewers), 0) END AS reviewers,
           CASE WHEN bool_and(source = 'github') THEN sum(threads)::BIGINT END AS review_threads,
           CASE WHEN bool_and(source = 'github') THEN sum(unresolved)::BIGINT END
               AS unresolved_at_merge,
           CASE WHEN bool_and(source = 'github')
                THEN count(*) FILTER (WHERE unresolved > 0) END AS prs_with_unresolved_threads,
           CASE WHEN bool_and(source = 'github')
                THEN count(*) FILTER (WHERE approvals = 0) END AS merged_without_approval,
           round(median(hours_to_merge), 1) AS median_hours_to_merge,
           round(quantile_cont(hours_to_merge, 0.9), 1) AS p90_hours_to_merge
    FROM per_pr w
    LEFT JOIN weekly_reviewers r ON r.repo = w.repo AND r.week_start = w.week_start
    GROUP BY w.repo, w.week_start
)
-- A week without PRs is a row too: no PRs, nothing reviewed, and no source to say more.
SELECT s.repo, s.week_start, coalesce(w.prs, 0) AS prs,
       w.* EXCLUDE (repo, week_start, prs)
FROM {{ ref('stored_weeks') }} s
LEFT JOIN weekly w USING (repo, week_start)
ORDER BY s.repo, s.week_start
