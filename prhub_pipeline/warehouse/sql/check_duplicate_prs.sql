-- Merge commits stored under more than one PR number of a repository, among the PRs of the weeks
-- being checked (compared against every stored week). A number is stored once by the primary
-- key; one commit landing two PRs means a source misread its history.
WITH checked AS (
    SELECT DISTINCT merge_commit_sha FROM prs
    WHERE repo = $1 AND week_start BETWEEN $2 AND $3 AND merge_commit_sha IS NOT NULL
)
SELECT merge_commit_sha, list(number ORDER BY number) AS numbers
FROM prs
WHERE repo = $1 AND merge_commit_sha IN (SELECT merge_commit_sha FROM checked)
GROUP BY merge_commit_sha
HAVING count(*) > 1
ORDER BY merge_commit_sha
