"""concordia-ai: rules engine, search bots and analysis tools for the board game Concordia."""

__version__ = "0.1.0"
