SELECT number, thread_id, path, line, is_resolved, is_outdated, resolved_by
FROM review_threads
WHERE repo = $1 AND week_start = $2
ORDER BY number, position
