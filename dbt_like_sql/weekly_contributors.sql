-- materialized: view
-- description: Authors per week, as the report counts them (bots left out): how many people, how many new (first merged PR that week under any of their names: pr_authors; NULL until the stored history reaches 12 weeks before the week, as the report names no newcomers then), who, and the week's PRs (all of them, bots' and deleted accounts' too); then, apart, the week's commits pushed without a PR (all of them), how many people pushed them (bots left out: pushed_authors) and who pushed most. A week without PRs or pushes is a row of zeros.
WITH authored AS (
    SELECT a.repo, a.week_start, a.person,
           arg_min(a.author, a.merged_at) AS author,  -- the name the week's first PR used
           count(*) AS prs
    FROM {{ ref('pr_authors') }} a
    WHERE NOT {{ bot_name('a.author') }}
    GROUP BY a.repo, a.week_start, a.person
),
first_week AS (
    SELECT repo, person, min(week_start) AS first_week FROM authored GROUP BY repo, person
),
people AS (
    SELECT a.repo, a.week_start,
           count(*) AS authors,
           count(*) FILTER (WHERE a.week_start = f.first_week) AS new_authors,
           list(a.author ORDER BY a.author) FILTER (WHERE a.week_start = f.first_week)
               AS new_author_names,
           -- Ties go to the name first in order, so the same data gives the same name.
           first(a.author ORDER BY a.prs DESC, lower(a.author)) AS most_active_author
    FROM authored a
    JOIN first_week f USING (repo, person)
    GROUP BY a.repo, a.week_start
),
merged AS (
    SELECT repo, week_start, count(*) AS prs FROM {{ source('prs') }} GROUP BY repo, week_start
),
-- Commits pushed straight to the branch, apart from the PR figures above, whose meaning they
-- keep: OpenRLHF's xiaoxigua999 pushed 510 commits and showed as the author of 29 PRs.
pushed_by AS (
    SELECT a.repo, a.week_start, a.person,
           arg_min(a.author, a.committed_at) AS author,  -- the name the week's first push used
           count(*) AS commits
    FROM {{ ref('pushed_authors') }} a
    WHERE NOT {{ bot_name('a.author') }}
    GROUP BY a.repo, a.week_start, a.person
),
pushers AS (
    SELECT repo, week_start, count(*) AS pushers,
           first(author ORDER BY commits DESC, lower(author)) AS most_active_pusher
    FROM pushed_by
    GROUP BY repo, week_start
),
pushed AS (
    SELECT repo, week_start, count(*) AS pushed_commits
    FROM {{ source('pushed_commits') }}
    GROUP BY repo, week_start
),
-- As the report (facts.contributors): who is new is known once the stored history reaches
-- 12 weeks (USUAL_WEEKS) before the week; until then anyone could look new.
history AS (
    SELECT repo, min(week_start) AS first_week FROM {{ source('prs') }} GROUP BY repo
)
SELECT w.repo, w.week_start,
       coalesce(p.authors, 0) AS authors,
       CASE WHEN h.first_week < w.week_start - INTERVAL 84 DAY
            THEN coalesce(p.new_authors, 0) END AS new_authors,
       CASE WHEN h.first_week < w.week_start - INTERVAL 84 DAY
            THEN coalesce(p.new_author_names, []) END AS new_author_names,
       coalesce(m.prs, 0) AS prs,
       p.most_active_author,
       coalesce(c.pushed_commits, 0) AS pushed_commits,
       coalesce(u.pushers, 0) AS pushers,
       u.most_active_pusher
FROM {{ ref('stored_weeks') }} w
LEFT JOIN people p USING (repo, week_start)
LEFT JOIN merged m USING (repo, week_start)
LEFT JOIN pushed c USING (repo, week_start)
LEFT JOIN pushers u USING (repo, week_start)
LEFT JOIN history h USING (repo)
ORDER BY w.repo, w.week_start
