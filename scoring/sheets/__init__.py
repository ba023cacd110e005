"""Small Islands and Cooper Island played on a score sheet: a sheet's lines, its start, score and correction."""
