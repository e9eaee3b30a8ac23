"""The refusals of the tournaments services: a message for the person refused; nothing
was changed."""


class TournamentError(Exception):
    pass
