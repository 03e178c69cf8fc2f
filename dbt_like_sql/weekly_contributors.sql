-- materialized: view
-- description: Authors per week: how many, how many new (first merged PR that week), and who.
WITH authored AS (
    SELECT repo, week_start, author, count(*) AS prs
    FROM {{ source('prs') }}
    WHERE author IS NOT NULL
    GROUP BY repo, week_start, author
),
first_week AS (
    SELECT repo, author, min(week_start) AS first_week FROM authored GROUP BY repo, author
)
SELECT a.repo, a.week_start,
       count(*) AS authors,
       count(*) FILTER (WHERE a.week_start = f.first_week) AS new_authors,
       list(a.author ORDER BY a.author) FILTER (WHERE a.week_start = f.first_week) AS new_author_names,
       sum(a.prs) AS prs,
       arg_max(a.author, a.prs) AS most_active_author
FROM authored a
JOIN first_week f USING (repo, author)
GROUP BY a.repo, a.week_start
