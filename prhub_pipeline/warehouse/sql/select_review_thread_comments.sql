SELECT thread_id, comment_id, author, author_is_bot, is_pr_author, body, created_at
FROM review_thread_comments
WHERE repo = $1 AND week_start = $2
ORDER BY number, thread_id, position
