"""The help a table needs with the rules: the rules search, its analysis of words and the players' vocabulary
per language."""
