"""The field table of the position format (issue 17, 1.3): one table drives export, load, the checks and the
template; an unknown field is refused at every level, with a did-you-mean."""
import copy
import inspect
import json

import pytest

from concordia_ai.engine import position, position_fields as fields
from concordia_ai.engine.game import Game
from concordia_ai.engine.position import PositionError
from cli_helpers import run

BASE = Game.new("imperium", 3, seed=1, names=["Ann", "Bob", "Cid"]).to_json()


def refusal(edit) -> str:
    pos = copy.deepcopy(BASE)
    edit(pos)
    with pytest.raises(PositionError) as e:
        Game.from_json(pos)
    return str(e.value)


@pytest.mark.parametrize("edit, message", [
    (lambda p: p.update(praefectus_magnus_typo="Ann"),
     "$.praefectus_magnus_typo: unknown field 'praefectus_magnus_typo'; did you mean praefectus_magnus?"),
    (lambda p: p["options"].update(wine=True), "$.options.wine: unknown field 'wine'; valid: wine_variant, "
                                               "intermediate_scoring"),
    (lambda p: p["players"][1].update(coin=3), "$.players[1].coin: unknown field 'coin'; did you mean coins?"),
    (lambda p: p["players"][0]["colonists"].update(air=[]), "$.players[0].colonists.air: unknown field 'air'; "
                                                            "valid: land, sea"),
    (lambda p: p["provinces"]["Italia"].update(markers="tool"),
     "$.provinces.Italia.markers: unknown field 'markers'; did you mean marker?"),
    (lambda p: p["turn"].update(phse="play"), "$.turn.phse: unknown field 'phse'; did you mean phase?"),
    (lambda p: p["turn"]["scratch"].update(stepz=1), "$.turn.scratch.stepz: unknown field 'stepz'; did you mean "
                                                     "steps?"),
    (lambda p: p["end"].update(final_turns=1), "$.end.final_turns: unknown field 'final_turns'; did you mean "
                                               "final_turns_left?"),
    (lambda p: p["players"][0].update(Coins=9), "$.players[0].Coins: coins is given twice"),
])
def test_an_unknown_field_is_refused_at_every_level(edit, message):
    assert refusal(edit) == message


def test_field_names_ignore_case_and_outer_spaces_like_every_name():
    pos = copy.deepcopy(BASE)
    pos["players"][0]["COINS "] = pos["players"][0].pop("coins") + 4
    assert Game.from_json(pos).to_json()["players"][0]["coins"] == BASE["players"][0]["coins"] + 4


def test_an_unknown_field_on_the_command_line(tmp_path):
    pos = copy.deepcopy(BASE)
    pos["praefectus_magnus_typo"] = "Ann"
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    r = run("show", f, code=2)
    assert r.stderr == (f"error: {f}: $.praefectus_magnus_typo: unknown field 'praefectus_magnus_typo'; did you "
                        f"mean praefectus_magnus? (concordia position check {f} lists every problem)\n")


def test_the_table_lists_every_field_the_export_writes():
    def paths(value, path):
        if isinstance(value, dict) and path not in ("players[].goods", "players[].hand", "players[].discard",
                                                     "cities", "unseen"):
            for k, v in value.items():
                child = f"{path}{{}}" if path == "provinces" else (f"{path}.{k}" if path else k)
                yield child
                yield from paths(v, child)
        elif isinstance(value, list) and path == "players":
            for v in value:
                yield from paths(v, "players[]")
    written = set(paths(BASE, "")) - {"provinces{}"}
    assert written <= set(fields.BY_PATH), written - set(fields.BY_PATH)
    required = {f.path for f in fields.FIELDS if f.required}
    assert required <= written, required - written
    assert set(BASE["turn"]["scratch"]) == {f.name for f in fields.SCRATCH if not f.sparse}
    # a sparse field is written only when it is set
    g = Game.new("imperium", 3, seed=1)
    g.apply("play Architect")
    g.apply(g.legal_moves()[1])
    assert "arch_from" in g.to_json()["turn"]["scratch"]


def test_bounds_come_from_the_table():
    assert refusal(lambda p: p["players"][0].update(coins=fields.MAX_COINS + 1)) == \
        "$.players[0].coins: 1000001 is more than 1000000 (a real game uses a few hundred)"
    assert refusal(lambda p: p["turn"]["scratch"].update(keep_player=3)) == "$.turn.scratch.keep_player: 3 is not in 0..2"
    assert refusal(lambda p: p["turn"]["scratch"].update(merc_kinds=-1)) == \
        "$.turn.scratch.merc_kinds: cannot be negative: -1"


def test_the_decider_follows_from_the_phase_when_left_out():
    pos = copy.deepcopy(BASE)
    del pos["turn"]["decider"]
    assert Game.from_json(pos).to_json() == BASE


def test_load_is_short():
    """The sections are read by their own methods; load itself only puts them together."""
    assert len(inspect.getsource(position.load).splitlines()) <= 60


def test_a_misspelt_name_gets_a_did_you_mean():
    def misspelt(p):
        p["cities"]["Londinum"] = p["cities"].pop("Londinium")
    assert refusal(misspelt) == "$.cities.Londinum: unknown city 'Londinum'; did you mean Londinium?"
    assert refusal(lambda p: p["players"][0]["hand"].update(Archtect=1)) == \
        "$.players[0].hand.Archtect: unknown card 'Archtect'; did you mean Architect?"
