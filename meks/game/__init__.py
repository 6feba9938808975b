"""The game's data and rules: the catalog, Mek construction, dice, pilots, the arithmetic of
each check, scenarios and how they are won, and the checks every file of the game passes."""
