"""World War 5 as a game kind of the server: its rules engine, words, pictures, bots and
tournament hooks, registered with ``games.kinds`` when the app starts."""
