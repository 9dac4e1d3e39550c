"""The players: search configuration and results (the loop runs in the core), the value model, bots and
their spec strings, plan bots, and whole turns built from sub-decisions. Imports the engine and io."""
