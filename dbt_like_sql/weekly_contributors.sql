-- materialized: view
-- description: Authors per week: how many, how many new (first merged PR that week, under this name or from this address: prs.author_key), and who.
WITH first_by_name AS (
    SELECT repo, author, min(week_start) AS first_week
    FROM {{ source('prs') }}
    WHERE author IS NOT NULL
    GROUP BY repo, author
),
first_by_key AS (
    SELECT repo, author_key, min(week_start) AS first_week
    FROM {{ source('prs') }}
    WHERE author_key IS NOT NULL
    GROUP BY repo, author_key
),
authored AS (
    -- An author is new in the week of their first PR under any name they used.
    SELECT p.repo, p.week_start, p.author, count(*) AS prs,
           min(least(n.first_week, coalesce(k.first_week, n.first_week))) AS first_week
    FROM {{ source('prs') }} p
    JOIN first_by_name n USING (repo, author)
    LEFT JOIN first_by_key k USING (repo, author_key)
    GROUP BY p.repo, p.week_start, p.author
)
SELECT repo, week_start,
       count(*) AS authors,
       count(*) FILTER (WHERE week_start = first_week) AS new_authors,
       list(author ORDER BY author) FILTER (WHERE week_start = first_week) AS new_author_names,
       sum(prs) AS prs,
       arg_max(author, prs) AS most_active_author
FROM authored
GROUP BY repo, week_start
