"""The `concordia` command line.

Error policy for every command: a user error prints one line on stderr naming the bad input and
what would be valid, and exits with code 2 (no traceback).
"""

import click

from concordia_ai import __version__

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="concordia")
def main() -> None:
    """Play, analyse and study the board game Concordia.

    Track a real game and ask for move hints, run tournaments between bots, and answer research
    questions with thousands of simulated games. Boards: Imperium, Italia, Creta, Aegyptus.

    \b
    Examples:
      concordia --version
      concordia COMMAND --help
    """


if __name__ == "__main__":  # pragma: no cover
    main()
