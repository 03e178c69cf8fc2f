-- materialized: view
-- description: Every author's merged PRs, lines changed, active weeks and key PRs, most active first, then apart their commits pushed without a PR and the weeks they pushed in: one row per person under all their names (pr_authors, pushed_authors), named as they last signed a PR (one who only pushed: a commit); bots are marked (the report leaves them out of its author counts). Someone who only pushed has 0 PRs and no first_week or last_week (those are of PRs). PRs of deleted accounts (no author) have no row.
-- The pushes are no PRs, so the PR figures keep their meaning; without them OpenRLHF's
-- xiaoxigua999, who pushed 510 commits, showed as the author of 29 PRs.
WITH authored AS (
    SELECT f.repo, a.person, arg_max(f.author, f.merged_at) AS author,
           bool_and({{ bot_name('f.author') }}) AS is_bot,
           count(*) AS prs,
           sum(f.additions + f.deletions)::BIGINT AS lines_changed,
           count(DISTINCT f.week_start) AS active_weeks,
           min(f.week_start) AS first_week,
           max(f.week_start) AS last_week,
           count(*) FILTER (WHERE f.is_key) AS key_prs
    FROM {{ ref('pr_facts') }} f
    JOIN {{ ref('pr_authors') }} a USING (repo, number)
    GROUP BY f.repo, a.person
),
pushed AS (
    SELECT repo, person, arg_max(author, committed_at) AS author,
           bool_and({{ bot_name('author') }}) AS is_bot,
           count(*) AS pushed_commits,
           count(DISTINCT week_start) AS pushed_weeks
    FROM {{ ref('pushed_authors') }}
    GROUP BY repo, person
)
SELECT repo, coalesce(a.author, p.author) AS author,
       coalesce(a.is_bot, p.is_bot) AS is_bot,
       coalesce(a.prs, 0) AS prs,
       coalesce(a.lines_changed, 0) AS lines_changed,
       coalesce(a.active_weeks, 0) AS active_weeks,
       a.first_week, a.last_week,
       coalesce(a.key_prs, 0) AS key_prs,
       coalesce(p.pushed_commits, 0) AS pushed_commits,
       coalesce(p.pushed_weeks, 0) AS pushed_weeks
FROM authored a
FULL JOIN pushed p USING (repo, person)
ORDER BY repo, prs DESC, author
