"""prhub-pipeline: weekly reports of a repository's merged pull requests."""
