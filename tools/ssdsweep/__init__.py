"""tools/sweep.py's parts: the spec and its points, running one point, the results table."""
