SELECT repo, number, title, body, author, co_authors, labels, created_at, merged_at, merged_by,
       base_branch, merge_commit_sha, additions, deletions, changed_files, is_revert,
       reverted_sha, reverted_number, source, author_key, batch_written_at
FROM prs
WHERE repo = $1 AND week_start BETWEEN $2 AND $3
ORDER BY merged_at, number
