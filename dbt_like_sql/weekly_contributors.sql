-- materialized: view
-- description: Authors per week: how many people, how many new (first merged PR that week under any of their names: author_identities), and who.
WITH authored AS (
    SELECT p.repo, p.week_start, i.person, any_value(i.person_name) AS author, count(*) AS prs
    FROM {{ source('prs') }} p
    JOIN {{ ref('author_identities') }} i USING (repo, author)
    GROUP BY p.repo, p.week_start, i.person
),
first_week AS (
    SELECT repo, person, min(week_start) AS first_week FROM authored GROUP BY repo, person
)
SELECT a.repo, a.week_start,
       count(*) AS authors,
       count(*) FILTER (WHERE a.week_start = f.first_week) AS new_authors,
       list(a.author ORDER BY a.author) FILTER (WHERE a.week_start = f.first_week) AS new_author_names,
       sum(a.prs) AS prs,
       arg_max(a.author, a.prs) AS most_active_author
FROM authored a
JOIN first_week f USING (repo, person)
GROUP BY a.repo, a.week_start
