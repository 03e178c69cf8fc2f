-- materialized: view
-- description: Every author's merged PRs, lines changed, active weeks and key PRs, most active first: one row per person under all their names (pr_authors), named as they last signed; bots are marked (the report leaves them out of its author counts). PRs of deleted accounts (no author) have no row.
SELECT f.repo, arg_max(f.author, f.merged_at) AS author,
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
ORDER BY f.repo, prs DESC, author
