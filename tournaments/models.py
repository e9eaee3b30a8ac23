"""Leagues, ladders, tournaments, rounds, tables and ratings."""
