-- Reported weeks of a repository ($1) from $2 to $3 with a release tag stored after the
-- week's report was generated (every language's rows are written at once).
SELECT DISTINCT t.week_start
FROM release_tags t
JOIN (
    SELECT week_start, min(generated_at) AS generated_at
    FROM weekly_reports
    WHERE repo = $1
    GROUP BY week_start
) r ON r.week_start = t.week_start
WHERE t.repo = $1 AND t.week_start BETWEEN $2 AND $3 AND t.noticed_at > r.generated_at
