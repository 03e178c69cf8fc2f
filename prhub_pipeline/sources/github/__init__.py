"""The GitHub source: one week's merged pull requests, reviews and review threads over GraphQL.

A week is fetched with as few sequential requests as the page sizes allow:

1. Search `repo:OWNER/NAME is:pr is:merged [base:BRANCH] merged:START..END sort:created-asc`
   (the window in the configured zone, explicit offsets, END one second before the window's
   exclusive end; a fixed order, so pages neither repeat nor skip PRs). Each search page also
   asks for the repository's name, so a repository GitHub does not know (or under another name
   now) fails instead of searching to nothing. Each search page carries
   the full first page of every PR's files, labels, reviews, review threads (with their first
   comments) and conversation comments. Search serves at most 1,000 results while `issueCount`
   tells the truth, so a window holding more is split in halves by time until every part fits.
2. Only connections whose `pageInfo.hasNextPage` is true are paged further, with `node(id:)`
   follow-ups aliased into one request (several PRs' connections per request) and piggybacked on
   the next search page when there is one.
3. Every response is kept as a `RawPage`; `parse_pages` rebuilds the records from those pages
   alone and proves completeness (search union == `issueCount`, every connection == its
   `totalCount`), so later stages never re-fetch and a short page fails loudly. One limit it
   cannot prove away: GitHub lists at most 3,000 files of a PR (`totalCount` says 3,000 too;
   only `changedFiles` tells the truth), so a PR whose listed files fall short of
   `changedFiles` keeps those it lists, is logged, and is counted in
   `RequestStats.truncated_file_lists`.

Cost (GitHub's formula: connection requests / 100, nodes capped at 500,000 per query) with the
default `PageSizes`: a search page asks for 25 PRs x (files 100, labels 100, reviews 100,
comments 100, threads 50 x comments 20) = 1 + 25 x 5 + 25 x 50 = 1,376 connection requests, about
14 points, and 25 x 400 + 25 x 50 + 25 x 50 x 20 = 36,250 nodes. A week of 1,000 PRs costs about
560 points of the 5,000 an hour a token gets; the response of one page usually stays small
enough for GitHub's 10 second query timeout, and a query GitHub times out on twice is asked
again with every page size halved (a PR with thousands of files or long threads); the request
after it is asked in the configured sizes again. A follow-up request carries up to 50
connection pages of 100 (1 to 51 points; at most 50 x 100 x 20 = 100,000 nodes when all are
review-thread pages).
Measured request counts per week: benchmarks/github_requests.py.

`fetch_file_versions` reads files' text before and after PRs (merge commit and its first parent)
so configuration changes can be compared setting by setting; it costs 1 point a request.
`fetch_version_tags` reads the version tags of a run's weeks (the releases the reports name),
1 point a page of 100 tags.

The token lives only in the HTTP client's headers: never in a message, log, page or record.
"""

from prhub_pipeline.sources.github.client import (
    GitHubAuthError,
    GitHubClient,
    GitHubError,
    GitHubRateLimitError,
    GitHubResponseError,
    GitHubTimeoutError,
    GitHubUnavailableError,
)
from prhub_pipeline.sources.github.fetch import fetch_week
from prhub_pipeline.sources.github.file_versions import FetchedVersions, fetch_file_versions
from prhub_pipeline.sources.github.parse import CHANGE_TYPE_STATUS, parse_pages
from prhub_pipeline.sources.github.queries import FollowUp, PageSizes, SearchStep, compose_query
from prhub_pipeline.sources.github.tags import fetch_version_tags

__all__ = [
    "CHANGE_TYPE_STATUS",
    "FetchedVersions",
    "FollowUp",
    "GitHubAuthError",
    "GitHubClient",
    "GitHubError",
    "GitHubRateLimitError",
    "GitHubResponseError",
    "GitHubTimeoutError",
    "GitHubUnavailableError",
    "PageSizes",
    "SearchStep",
    "compose_query",
    "fetch_file_versions",
    "fetch_version_tags",
    "fetch_week",
    "parse_pages",
]
