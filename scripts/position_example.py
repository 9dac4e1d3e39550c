"""Regenerate the example and the field table in docs/position-format.md from the engine.

    python scripts/position_example.py   # rewrites the ```json block under "## Example" and the field table

tests/test_docs_position_example.py fails when either differs from what the engine gives.
"""
from __future__ import annotations

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.engine.position_fields import markdown_table  # noqa: E402

DOC = os.path.join(ROOT, "docs", "position-format.md")
BLOCK = re.compile(r"(## Example\n.*?```json\n)(.*?)(\n```)", re.S)
TABLE = re.compile(r"(<!-- field table: begin -->\n)(.*?)(\n<!-- field table: end -->)", re.S)


def example() -> str:
    return json.dumps(Game.new("imperium", 2, seed=1, names=["Ann", "Bob"]).to_json(), indent=2)


def documented(text: str) -> str:
    m = BLOCK.search(text)
    if not m:
        raise SystemExit(f"{DOC}: no ```json block under '## Example'")
    return m.group(2)


def documented_table(text: str) -> str:
    m = TABLE.search(text)
    if not m:
        raise SystemExit(f"{DOC}: no field table between its <!-- field table --> markers")
    return m.group(2)


def main() -> None:
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    documented(text)
    documented_table(text)
    new = BLOCK.sub(lambda m: f"{m.group(1)}{example()}{m.group(3)}", text)
    new = TABLE.sub(lambda m: f"{m.group(1)}{markdown_table()}{m.group(3)}", new)
    write_atomic(DOC, new)


if __name__ == "__main__":
    main()
