"""concordia-ai: rules engine, search bots and analysis tools for the board game Concordia.

    >>> from concordia_ai import Game, SearchConfig
    >>> from concordia_ai.ai.search import search
"""

__version__ = "0.1.0"

_EXPORTS = {
    "Game": "concordia_ai.engine.game",
    "GameError": "concordia_ai.engine.errors",
    "NotationError": "concordia_ai.engine.errors",
    "PositionError": "concordia_ai.engine.position",
    "SearchConfig": "concordia_ai.ai.search",
    "make_bot": "concordia_ai.ai.bots",
}


def __getattr__(name):
    # lazy, so that `import concordia_ai` (e.g. for __version__) never needs the compiled core
    if name in _EXPORTS:
        import importlib
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'concordia_ai' has no attribute {name!r}")


__all__ = ["__version__", *_EXPORTS]
