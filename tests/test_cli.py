"""The console script's top level."""

from click.testing import CliRunner

from concordia_ai import __version__
from concordia_ai.cli import main


def test_version():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"concordia, version {__version__}\n"


def test_help():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "Concordia" in result.output
    assert "--version" in result.output
