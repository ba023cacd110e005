"""A finished game's result: its pages, the public result, the result image, BG Stats."""
