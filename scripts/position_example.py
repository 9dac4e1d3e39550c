"""Regenerate the example in docs/position-format.md from the engine's real output.

    python scripts/position_example.py          # rewrites the ```json block under "## Example"

tests/test_docs_position_example.py fails when the block and the real output differ.
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

DOC = os.path.join(ROOT, "docs", "position-format.md")
BLOCK = re.compile(r"(## Example\n.*?```json\n)(.*?)(\n```)", re.S)


def example() -> str:
    return json.dumps(Game.new("imperium", 2, seed=1, names=["Ann", "Bob"]).to_json(), indent=2)


def documented(text: str) -> str:
    m = BLOCK.search(text)
    if not m:
        raise SystemExit(f"{DOC}: no ```json block under '## Example'")
    return m.group(2)


def main() -> None:
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    documented(text)
    new = BLOCK.sub(lambda m: f"{m.group(1)}{example()}{m.group(3)}", text)
    write_atomic(DOC, new)


if __name__ == "__main__":
    main()
