SELECT number, comment_id, author, author_is_bot, is_pr_author, body, created_at
FROM pr_comments
WHERE repo = $1 AND week_start = $2
ORDER BY number, position
