SELECT number, path, key, before, after
FROM pr_setting_changes
WHERE repo = $1 AND week_start = $2
ORDER BY number, path, key
