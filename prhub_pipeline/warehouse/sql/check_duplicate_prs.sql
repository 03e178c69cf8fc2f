-- PR numbers or merge commits that appear more than once for a repository, among the PRs of
-- the weeks being checked (compared against every stored week of the repository).
WITH checked AS (
    SELECT number, merge_commit_sha FROM prs WHERE repo = $1 AND week_start BETWEEN $2 AND $3
),
numbers AS (
    SELECT 'number' AS kind, CAST(number AS VARCHAR) AS value, count(*) AS n
    FROM prs WHERE repo = $1 AND number IN (SELECT number FROM checked)
    GROUP BY number HAVING count(*) > 1
),
commits AS (
    SELECT 'commit' AS kind, merge_commit_sha AS value, count(*) AS n
    FROM prs
    WHERE repo = $1 AND merge_commit_sha IN (SELECT merge_commit_sha FROM checked)
    GROUP BY merge_commit_sha HAVING count(*) > 1
)
SELECT kind, value, n FROM numbers
UNION ALL
SELECT kind, value, n FROM commits
ORDER BY kind, value
