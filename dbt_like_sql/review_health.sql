-- materialized: view
-- description: Per week: review threads, threads left unresolved at merge, PRs merged without approval, time to merge.
WITH per_pr AS (
    SELECT p.repo, p.week_start, p.number, p.source,
           epoch(p.merged_at - p.created_at) / 3600.0 AS hours_to_merge,
           (SELECT count(*) FROM {{ source('review_threads') }} t
             WHERE t.repo = p.repo AND t.number = p.number) AS threads,
           (SELECT count(*) FROM {{ source('review_threads') }} t
             WHERE t.repo = p.repo AND t.number = p.number AND NOT t.is_resolved) AS unresolved,
           (SELECT count(*) FROM {{ source('reviews') }} r
             WHERE r.repo = p.repo AND r.number = p.number AND r.state = 'APPROVED') AS approvals
    FROM {{ source('prs') }} p
)
-- Review figures are NULL for weeks whose source has no review data (git), never a false 0.
SELECT repo, week_start,
       count(*) AS prs,
       bool_and(source = 'github') AS review_data_available,
       CASE WHEN bool_and(source = 'github') THEN sum(threads) END AS review_threads,
       CASE WHEN bool_and(source = 'github') THEN sum(unresolved) END AS unresolved_at_merge,
       CASE WHEN bool_and(source = 'github')
            THEN count(*) FILTER (WHERE unresolved > 0) END AS prs_with_unresolved_threads,
       CASE WHEN bool_and(source = 'github')
            THEN count(*) FILTER (WHERE approvals = 0) END AS merged_without_approval,
       round(median(hours_to_merge), 1) AS median_hours_to_merge,
       round(quantile_cont(hours_to_merge, 0.9), 1) AS p90_hours_to_merge
FROM per_pr
GROUP BY repo, week_start
