"""The rules as Python sees them: content (boards and cards from data/), the move vocabulary compiled for
the core, a game and its position, move notation, the canonical order of a turn's steps, why a step is
refused, what a step costs, and the errors and bounds every layer shares. Imports only the core."""
