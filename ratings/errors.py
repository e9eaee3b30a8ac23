class RatingError(Exception):
    """A refused ladder or rating action, with the reason for the person who asked."""
