"""The odds of a battle without playing it: the exact duel, battles fought many times, the
estimate from the two forces, and choosing a force within a budget."""
