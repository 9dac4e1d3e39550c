"""The exceptions users see: each carries one line that names what is wrong and what would be valid."""


class ConcordiaError(ValueError):
    """Base of every user-facing error."""


class GameError(ConcordiaError):
    """A bad request to a game: an illegal move, an unknown board, a bad layout."""


class NotationError(GameError):
    """Unknown, ambiguous or illegal move text; the message lists what would be valid."""
