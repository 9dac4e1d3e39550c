"""The JSON-lines analysis engine (`concordia analyze`) and its sliced search. Imports every layer below."""
