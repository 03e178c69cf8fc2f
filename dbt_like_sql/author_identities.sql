-- materialized: table
-- description: Each author name's person, of the PRs' authors and of the commits pushed without a PR: names that share an author_key (a GitHub login, or an email with the git source), directly or through other names, are one person, named as they last signed.
-- A pusher's names are theirs too: TransformerEngine's Przemek Tredak pushed 41 commits under
-- that name, and landed PRs as Przemyslaw Tredak, from the same address.
WITH RECURSIVE signed AS (
    SELECT repo, author, author_key, merged_at AS signed_at
    FROM {{ source('prs') }}
    WHERE author IS NOT NULL
    UNION ALL
    SELECT repo, author, author_key, committed_at
    FROM {{ source('pushed_commits') }}
    WHERE author IS NOT NULL
),
pairs AS (
    SELECT DISTINCT repo, author, coalesce(author_key, 'name:' || author) AS author_key
    FROM signed
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
    SELECT i.repo, i.person, arg_max(s.author, s.signed_at) AS person_name
    FROM signed s
    JOIN person i USING (repo, author)
    GROUP BY i.repo, i.person
)
SELECT i.repo, i.author, i.person, n.person_name
FROM person i
JOIN named n USING (repo, person)
