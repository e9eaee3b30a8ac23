"""Admin pages for the games app."""
