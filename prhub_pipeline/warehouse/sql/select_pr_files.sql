SELECT number, path, status, previous_path, additions, deletions
FROM pr_files
WHERE repo = $1 AND week_start BETWEEN $2 AND $3
ORDER BY number, path
