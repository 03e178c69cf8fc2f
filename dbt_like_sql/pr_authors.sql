-- materialized: view
-- description: Each merged PR's author and their person (author_identities), for the author figures. A name stored since the table's last refresh (a run whose model refresh has not followed yet) is the person of its author_key when another name already has it, else a person of its own, so the figures count every PR in `prs` at all times. PRs of deleted accounts (no author) have no row.
-- The fallback is the person author_identities would make of a name it has not seen: a
-- component of one name and its key ('k:' || key, the smallest node), or the component of
-- the names that already share the key.
WITH keyed AS (
    SELECT p.*, coalesce(p.author_key, 'name:' || p.author) AS identity_key
    FROM {{ source('prs') }} p
    WHERE p.author IS NOT NULL
),
known_keys AS (
    SELECT k.repo, k.identity_key, min(i.person) AS person
    FROM keyed k
    JOIN {{ ref('author_identities') }} i USING (repo, author)
    GROUP BY k.repo, k.identity_key
)
SELECT k.repo, k.week_start, k.number, k.author, k.merged_at,
       coalesce(i.person, n.person, 'k:' || k.identity_key) AS person
FROM keyed k
LEFT JOIN {{ ref('author_identities') }} i USING (repo, author)
LEFT JOIN known_keys n USING (repo, identity_key)
ORDER BY k.repo, k.week_start, k.number
