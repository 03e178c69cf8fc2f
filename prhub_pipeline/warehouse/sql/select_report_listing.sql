-- Every stored report of a repository, newest week first, with the week's risk flags.
SELECT w.week_start, w.lang, w.pr_count, w.key_pr_count,
       (SELECT count(*) FROM pr_risks r
         WHERE r.repo = w.repo AND r.week_start = w.week_start) AS risk_flags,
       w.generated_at
FROM weekly_reports w
WHERE w.repo = ?
ORDER BY w.week_start DESC, w.lang
