SELECT number, review_id, author, author_is_bot, state, body, submitted_at
FROM reviews
WHERE repo = $1 AND week_start = $2
ORDER BY number, position
