"""RisiKo as a game kind of the server."""
