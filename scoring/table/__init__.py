"""The live table: the game page, the step-by-step entry, drafts, seats and phones' claims, twins, locking,
gone games and the live polls."""
