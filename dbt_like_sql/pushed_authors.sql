-- materialized: view
-- description: Each commit pushed without a PR (pushed_commits) with its author and their person (author_identities), as pr_authors has each PR's, for the author figures' pushed-commit counts. A name stored since the last refresh is the person of its author_key when another name already has it, else a person of its own. Commits without an author name have no row.
-- OpenRLHF's maintainers push most of their work straight to main (1,104 of its 1,459
-- commits): counting PR authors alone, its most active committer showed 29 PRs.
WITH keyed AS (
    SELECT c.*, coalesce(c.author_key, 'name:' || c.author) AS identity_key
    FROM {{ source('pushed_commits') }} c
    WHERE c.author IS NOT NULL
),
known_keys AS (
    SELECT k.repo, k.identity_key, min(i.person) AS person
    FROM keyed k
    JOIN {{ ref('author_identities') }} i USING (repo, author)
    GROUP BY k.repo, k.identity_key
)
SELECT k.repo, k.week_start, k.sha, k.author, k.committed_at,
       coalesce(i.person, n.person, 'k:' || k.identity_key) AS person
FROM keyed k
LEFT JOIN {{ ref('author_identities') }} i USING (repo, author)
LEFT JOIN known_keys n USING (repo, identity_key)
ORDER BY k.repo, k.week_start, k.committed_at, k.sha
