"""Pages of the games app."""
