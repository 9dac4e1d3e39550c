"""The package's layers (README, "Layout"): each folder imports only the folders below it, and never a
private name (`_x`) of a module in another folder."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "concordia_ai"
# lowest first; the compiled core (`concordia_ai.core`) sits under everything
LAYERS = ["core", "engine", "io", "ai", "table", "lab", "protocol", "web", "cli"]


def layer_of(dotted: str) -> str | None:
    parts = dotted.split(".")
    if parts == ["concordia_ai"]:
        return "core"   # the package's own __init__: __version__ and lazy names, no imports at load
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, source: str):
    """(line, imported module, imported names) for every concordia_ai import in one file."""
    mod = module_name(path)
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("concordia_ai"):
                    yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("concordia_ai"):
                names = [a.name for a in node.names]
                # `from concordia_ai.x import y` may name a module y: its layer is y's
                for name in names:
                    full = f"{target}.{name}"
                    is_module = (PACKAGE.parent / full.replace(".", "/")).with_suffix(".py").exists() \
                        or (PACKAGE.parent / full.replace(".", "/") / "__init__.py").exists() \
                        or full == "concordia_ai.core"
                    yield node.lineno, (full if is_module else target), ([] if is_module else [name])


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if layer_of(module_name(p)))


def test_every_module_is_in_a_layer():
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    assert loose == [], f"modules outside the layer folders: {loose}"
    assert len(SOURCES) > 40


def violations(path: Path, source: str) -> list[str]:
    here = layer_of(module_name(path))
    bad = []
    for line, target, names in imports(path, source):
        there = layer_of(target)
        if there is None:
            bad.append(f"line {line}: {target} is in no layer")
        elif LAYERS.index(there) > LAYERS.index(here):
            bad.append(f"line {line}: {here} imports {target}, a layer above it")
        elif there != here and any(n.startswith("_") and not n.startswith("__") for n in names):
            bad.append(f"line {line}: private {names} of {target}, another layer's module")
        elif there != here and target.split(".")[-1].startswith("_"):
            bad.append(f"line {line}: private module {target} of another layer")
    return bad


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    assert violations(path, path.read_text(encoding="utf-8")) == []


def test_the_contract_can_fail():
    game = PACKAGE / "engine" / "game.py"
    assert violations(game, "from ..cli.app import main\nfrom ..table import render\n") == [
        "line 1: engine imports concordia_ai.cli.app, a layer above it",
        "line 2: engine imports concordia_ai.table.render, a layer above it"]
    review = PACKAGE / "table" / "review.py"
    assert violations(review, "from ..ai.search import _private\nfrom ..engine import game\n") == [
        "line 1: private ['_private'] of concordia_ai.ai.search, another layer's module"]
