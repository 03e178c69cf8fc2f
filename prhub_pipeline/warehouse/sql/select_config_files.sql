SELECT number, path, comparable
FROM pr_config_files
WHERE repo = $1 AND week_start = $2
ORDER BY number, path
