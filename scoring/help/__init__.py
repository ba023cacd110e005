"""The help a table needs with the rules: the rules page and its search (its analysis of words and the players'
vocabulary per language), the calculators."""
