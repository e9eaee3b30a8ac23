"""Pages of the tournaments app."""
