-- Every stored report of a repository, newest week first, with the week's risk flags and
-- commits pushed without a PR.
SELECT w.week_start, w.lang, w.pr_count, w.key_pr_count,
       (SELECT count(*) FROM pr_risks r
         WHERE r.repo = w.repo AND r.week_start = w.week_start) AS risk_flags,
       (SELECT count(*) FROM pushed_commits c
         WHERE c.repo = w.repo AND c.week_start = w.week_start) AS pushed_commits,
       w.generated_at
FROM weekly_reports w
WHERE w.repo = ?
ORDER BY w.week_start DESC, w.lang
