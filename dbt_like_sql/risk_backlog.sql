-- materialized: view
-- description: Every risk flagged so far, newest first, with the PR's importance and whether a later PR reverted it (reverted_by), or a commit pushed without a PR (reverted_by_commit).
SELECT r.repo, r.week_start, r.number, p.title, r.risk, r.severity, r.detail,
       s.importance,
       rev.reverted_by,
       pushed.reverted_by_commit,
       current_date - r.week_start AS age_days
FROM {{ source('pr_risks') }} r
JOIN {{ source('prs') }} p USING (repo, number)
LEFT JOIN {{ source('pr_scores') }} s USING (repo, number)
-- One row per flag: a PR reverted twice (vllm-ascend #5519 by #5902 and #5903) names the first.
LEFT JOIN (
    SELECT v.repo, v.reverted_number, arg_min(v.number, p.merged_at) AS reverted_by
    FROM {{ source('pr_reverts') }} v
    JOIN {{ source('prs') }} p USING (repo, number)
    GROUP BY v.repo, v.reverted_number
) rev ON rev.repo = r.repo AND rev.reverted_number = r.number
-- A revert pushed straight to the branch has no pr_reverts row (OpenRLHF's of #725).
LEFT JOIN (
    SELECT repo, reverted_number, arg_min(sha, committed_at) AS reverted_by_commit
    FROM {{ source('pushed_commits') }}
    WHERE reverted_number IS NOT NULL
    GROUP BY repo, reverted_number
) pushed ON pushed.repo = r.repo AND pushed.reverted_number = r.number
ORDER BY r.week_start DESC, s.importance DESC NULLS LAST, r.number
