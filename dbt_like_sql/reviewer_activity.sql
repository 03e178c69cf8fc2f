-- materialized: view
-- description: Reviewers (GitHub source): reviews, approvals, change requests and threads started.
-- An author's own replies in their PR's threads are reviews to GitHub, not here (as in
-- review_health and the report).
WITH review_counts AS (
    SELECT r.repo, r.author AS reviewer,
           count(*) AS reviews,
           count(*) FILTER (WHERE r.state = 'APPROVED') AS approvals,
           count(*) FILTER (WHERE r.state = 'CHANGES_REQUESTED') AS change_requests,
           count(DISTINCT r.number) AS prs_reviewed,
           bool_or(r.author_is_bot) AS is_bot
    FROM {{ source('reviews') }} r
    JOIN {{ source('prs') }} p ON p.repo = r.repo AND p.number = r.number
    WHERE r.author IS NOT NULL AND r.author IS DISTINCT FROM p.author
    GROUP BY r.repo, r.author
),
threads_started AS (
    SELECT repo, author AS reviewer, count(*) AS threads_started
    FROM {{ source('review_thread_comments') }}
    WHERE position = 0 AND author IS NOT NULL AND NOT is_pr_author
    GROUP BY repo, author
)
SELECT coalesce(r.repo, t.repo) AS repo, coalesce(r.reviewer, t.reviewer) AS reviewer,
       coalesce(r.reviews, 0) AS reviews, coalesce(r.approvals, 0) AS approvals,
       coalesce(r.change_requests, 0) AS change_requests,
       coalesce(r.prs_reviewed, 0) AS prs_reviewed,
       coalesce(t.threads_started, 0) AS threads_started,
       coalesce(r.is_bot, t.reviewer LIKE '%[bot]') AS is_bot
FROM review_counts r
FULL OUTER JOIN threads_started t USING (repo, reviewer)
ORDER BY repo, reviews DESC, threads_started DESC, reviewer
