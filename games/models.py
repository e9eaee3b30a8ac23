"""Games, seats, the move log, deadlines and turn prompts; the rules live in games.engine."""
