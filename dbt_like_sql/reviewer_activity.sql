-- materialized: view
-- description: Reviewers (GitHub source): reviews, approvals, change requests, PRs reviewed and threads started, over every stored week (weekly_reviewer_activity has them per week).
-- A PR is of one week, so the weeks' PRs reviewed add up to the PRs reviewed.
SELECT repo, reviewer,
       sum(reviews)::BIGINT AS reviews, sum(approvals)::BIGINT AS approvals,
       sum(change_requests)::BIGINT AS change_requests,
       sum(prs_reviewed)::BIGINT AS prs_reviewed,
       sum(threads_started)::BIGINT AS threads_started,
       bool_or(is_bot) AS is_bot
FROM {{ ref('weekly_reviewer_activity') }}
GROUP BY repo, reviewer
ORDER BY repo, reviews DESC, threads_started DESC, reviewer
