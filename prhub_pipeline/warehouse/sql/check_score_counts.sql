-- Weeks where the number of stored PRs and of stored scores differ.
WITH pr_counts AS (
    SELECT week_start, count(*) AS prs FROM prs
    WHERE repo = $1 AND list_contains($2, week_start) GROUP BY week_start
),
score_counts AS (
    SELECT week_start, count(*) AS scores FROM pr_scores
    WHERE repo = $1 AND list_contains($2, week_start) GROUP BY week_start
)
SELECT CAST(coalesce(p.week_start, s.week_start) AS VARCHAR) AS week,
       coalesce(p.prs, 0) AS prs, coalesce(s.scores, 0) AS scores
FROM pr_counts p FULL OUTER JOIN score_counts s USING (week_start)
WHERE coalesce(p.prs, 0) <> coalesce(s.scores, 0)
ORDER BY week
