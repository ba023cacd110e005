"""Rules help: the rules search, its analysis of words and the players' vocabulary per language."""
