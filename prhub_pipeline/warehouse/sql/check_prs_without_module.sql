-- PRs of the given weeks that have no row in pr_modules.
SELECT p.week_start, p.number, p.title
FROM prs p
WHERE p.repo = $1 AND list_contains($2, p.week_start)
  AND NOT EXISTS (
      SELECT 1 FROM pr_modules m WHERE m.repo = p.repo AND m.number = p.number
  )
ORDER BY p.week_start, p.number
