-- materialized: table
-- description: Each author name's person: names that share an author_key (a GitHub login, or an email with the git source), directly or through other names, are one person, named as they last signed.
WITH RECURSIVE pairs AS (
    SELECT DISTINCT repo, author, coalesce(author_key, 'name:' || author) AS author_key
    FROM {{ source('prs') }}
    WHERE author IS NOT NULL
),
edges AS (
    SELECT repo, 'n:' || author AS node, 'k:' || author_key AS other FROM pairs
    UNION
    SELECT repo, 'k:' || author_key, 'n:' || author FROM pairs
),
reach (repo, node, other) AS (
    SELECT repo, node, node FROM edges
    UNION
    SELECT r.repo, r.node, e.other
    FROM reach r
    JOIN edges e ON e.repo = r.repo AND e.node = r.other
),
person AS (
    SELECT repo, substr(node, 3) AS author, min(other) AS person
    FROM reach
    WHERE node LIKE 'n:%'
    GROUP BY repo, node
),
named AS (
    SELECT i.repo, i.person, arg_max(p.author, p.merged_at) AS person_name
    FROM {{ source('prs') }} p
    JOIN person i USING (repo, author)
    GROUP BY i.repo, i.person
)
SELECT i.repo, i.author, i.person, n.person_name
FROM person i
JOIN named n USING (repo, person)
