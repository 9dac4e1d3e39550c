"""Every data file the package reads ships with it: a non-editable install (`pip install .`) copies only the files
pyproject.toml's package-data globs name, so a file they miss works from a checkout and is missing everywhere
else (the kept weight sets of data/sets/, say)."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "concordia_ai"


def test_every_file_under_data_is_named_by_a_package_data_glob():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["concordia_ai"]
    shipped = {p for g in globs for p in PKG.glob(g) if p.is_file()}
    data = {p for p in (PKG / "data").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert sorted(str(p.relative_to(PKG)) for p in data - shipped) == []
    # the kept sets are among them, both kinds
    assert {p.parent.name for p in shipped if "sets" in p.parts} == {"value", "policy"}
