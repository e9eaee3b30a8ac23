"""Fixtures shared by the games tests: the personas, loaded dice and the clock."""

from tests.games.factories import alice, bob, carol, clock, dave, dice, olga

__all__ = ["alice", "bob", "carol", "clock", "dave", "dice", "olga"]
