SELECT seq, query_name, variables, response, range_start, range_end
FROM github_pages
WHERE repo = $1 AND week_start = $2
ORDER BY seq
