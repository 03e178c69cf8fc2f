-- Who a PR's author is across the names they commit under (PullRequest.author_key): a GitHub
-- login, lowercased (github source; git source: read from a GitHub noreply address), else
-- the commit's email, lowercased. NULL for rows stored before, until their weeks are ingested
-- again.
ALTER TABLE prs ADD COLUMN author_key VARCHAR;
