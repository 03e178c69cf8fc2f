SELECT number, path, key, before, after
FROM pr_setting_changes
WHERE repo = $1
ORDER BY number, path, key
