"""The example in docs/position-format.md is the engine's real output (regenerate it with
scripts/position_example.py)."""
import importlib.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_documented_example_is_current():
    spec = importlib.util.spec_from_file_location("position_example", os.path.join(ROOT, "scripts",
                                                                                   "position_example.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(mod.DOC, encoding="utf-8") as f:
        shown = json.loads(mod.documented(f.read()))
    assert shown == json.loads(mod.example()), "docs/position-format.md: run scripts/position_example.py"
    assert shown["turn"]["card"] is None and shown["turn"]["scratch"]["merc_sold_last"] == -1


def test_every_field_of_the_table_is_documented():
    """The field table in docs/position-format.md is the engine's table (so every field is documented)."""
    from concordia_ai.engine.position_fields import FIELDS, markdown_table
    spec = importlib.util.spec_from_file_location("position_example", os.path.join(ROOT, "scripts",
                                                                                   "position_example.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(mod.DOC, encoding="utf-8") as f:
        table = mod.documented_table(f.read())
    assert table == markdown_table(), "docs/position-format.md: run scripts/position_example.py"
    for field in FIELDS:
        assert f"| `{field.path}` |" in table, field.path
