"""What a PR's title and description say: its type and tags (`pr_titles`), the description
without its template (`pr_descriptions`), and its one-line summary and prose (`pr_summaries`).
"""
