"""Admin pages for the tournaments app."""
