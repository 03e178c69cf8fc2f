SELECT number, path, comparable, keeps_existing
FROM pr_config_files
WHERE repo = $1 AND week_start = $2
ORDER BY number, path
