"""Move kinds and phases are the core's numbers under names (issue 17, 1.3): the enums in
engine/vocabulary.py equal core.ACTION_TYPES and core.PHASES both ways, and the code compares with them."""
import re
from pathlib import Path

from concordia_ai import core
from concordia_ai.engine.game import Game
from concordia_ai.engine.vocabulary import ActionType, Phase, action_type, move_type

PACKAGE = Path(__file__).resolve().parent.parent / "concordia_ai"


def test_the_enums_are_the_cores_numbers_and_words():
    assert {t.value: t.word for t in ActionType} == core.ACTION_TYPES
    assert {p.value: p.word for p in Phase} == core.PHASES
    assert {t.name for t in ActionType} == {w.upper().replace("-", "_") for w in core.ACTION_TYPES.values()}
    assert {p.name for p in Phase} == {w.upper().replace("-", "_") for w in core.PHASES.values()}
    assert (ActionType.PLAY, ActionType.COPY, ActionType.CARD) == (1, 2, 12)     # the numbers of cext/core.pxd
    assert (Phase.PLAY, Phase.ARCHITECT_MOVE, Phase.OVER) == (1, 4, 13)


def test_moves_and_phases_of_a_game_read_as_enums():
    g = Game.new("imperium", 3, seed=7)
    assert g.state.phase == Phase.PLAY and Phase(g.state.phase).word == g.phase == "play"
    kinds = {move_type(m) for m in g.legal_moves()}
    assert kinds == {ActionType.PLAY}
    g.apply("play Architect")
    assert Phase(g.state.phase) is Phase.ARCHITECT_MOVE
    assert {move_type(m) for m in g.legal_moves()} == {ActionType.DONE, ActionType.MOVE}
    assert move_type(core.encode(ActionType.BUILD, 3)) is ActionType.BUILD
    assert action_type(0) is None and action_type(99) is None


def test_no_module_copies_the_cores_numbers_or_matches_a_notation_prefix():
    verbs = "|".join(sorted({w.split("-")[0] for w in core.ACTION_TYPES.values()}))
    prefix = re.compile(rf'startswith\("({verbs})\b')
    copies = re.compile(r"\b(PLAY|COPY|CARD|PH_PLAY)\s*(,\s*\w+\s*)*=\s*\d|core\.encode\(\d")
    found = []
    for path in PACKAGE.rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if prefix.search(line) or copies.search(line):
                found.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert found == []
