-- materialized: view
-- description: Reviewers per week (GitHub source), a week being the reviewed PR's (week_start as in every weekly model: the Monday, in the configured timezone, of the week it merged in): reviews, approvals, change requests, PRs reviewed and review threads started. A row only for a week the reviewer did any of that: average per week over stored_weeks, not over the rows. reviewer_activity is its sum over the weeks.
-- An author's own replies in their PR's threads are reviews to GitHub, not here (as in
-- review_health and the report).
WITH review_counts AS (
    SELECT r.repo, p.week_start, r.author AS reviewer,
           count(*) AS reviews,
           count(*) FILTER (WHERE r.state = 'APPROVED') AS approvals,
           count(*) FILTER (WHERE r.state = 'CHANGES_REQUESTED') AS change_requests,
           count(DISTINCT r.number) AS prs_reviewed,
           bool_or(r.author_is_bot OR {{ bot_name('r.author') }}) AS is_bot
    FROM {{ source('reviews') }} r
    JOIN {{ source('prs') }} p ON p.repo = r.repo AND p.number = r.number
    WHERE r.author IS NOT NULL AND r.author IS DISTINCT FROM p.author
    GROUP BY r.repo, p.week_start, r.author
),
threads_started AS (
    SELECT c.repo, p.week_start, c.author AS reviewer, count(*) AS threads_started
    FROM {{ source('review_thread_comments') }} c
    JOIN {{ source('prs') }} p ON p.repo = c.repo AND p.number = c.number
    WHERE c.position = 0 AND c.author IS NOT NULL AND NOT c.is_pr_author
    GROUP BY c.repo, p.week_start, c.author
)
SELECT coalesce(r.repo, t.repo) AS repo, coalesce(r.week_start, t.week_start) AS week_start,
       coalesce(r.reviewer, t.reviewer) AS reviewer,
       coalesce(r.reviews, 0) AS reviews, coalesce(r.approvals, 0) AS approvals,
       coalesce(r.change_requests, 0) AS change_requests,
       coalesce(r.prs_reviewed, 0) AS prs_reviewed,
       coalesce(t.threads_started, 0) AS threads_started,
       coalesce(r.is_bot, {{ bot_name('t.reviewer') }}) AS is_bot
FROM review_counts r
FULL OUTER JOIN threads_started t USING (repo, week_start, reviewer)
ORDER BY repo, week_start, reviews DESC, threads_started DESC, reviewer
