-- Reported weeks of a repository ($1) from $2 to $3 whose scores or report were made from
-- other PRs than the week stores now (weeks stored before `week_stages` existed have no stage
-- times to compare): a PR stored and not scored or scored and not stored, or a report of
-- another number of PRs. One row per week: the week, PRs stored, PRs scored of them, PRs
-- scored and not stored, and the report's PR count.
WITH stored AS (
    SELECT week_start, number FROM prs WHERE repo = $1 AND week_start BETWEEN $2 AND $3
),
scored AS (
    SELECT week_start, number FROM pr_scores WHERE repo = $1 AND week_start BETWEEN $2 AND $3
),
reported AS (
    SELECT week_start, min(pr_count) AS low, max(pr_count) AS high FROM weekly_reports
    WHERE repo = $1 AND week_start BETWEEN $2 AND $3
    GROUP BY week_start
),
compared AS (
    SELECT r.week_start, r.low, r.high,
           (SELECT count(*) FROM stored p WHERE p.week_start = r.week_start) AS prs,
           (SELECT count(*) FROM stored p JOIN scored s USING (week_start, number)
             WHERE p.week_start = r.week_start) AS scored,
           (SELECT count(*) FROM scored s ANTI JOIN stored p USING (week_start, number)
             WHERE s.week_start = r.week_start) AS scored_elsewhere
    FROM reported r
)
SELECT week_start, prs, scored, scored_elsewhere, high
FROM compared
WHERE scored < prs OR scored_elsewhere > 0 OR low <> prs OR high <> prs
ORDER BY week_start
