"""JSON positions (concordia_ai.engine.position, docs/position-format.md): round trip, validation, tables."""

import copy
import json
import random

import pytest

from concordia_ai.engine.game import CHANCE, Game, GameError
from concordia_ai.engine.position import PositionError

BOARDS = ("imperium", "italia")
PLAYERS = (2, 3, 4, 5)
MID_TURN = {"architect-move", "architect-build", "keep", "mercator", "senator", "consul", "colonist",
            "prefect", "diplomat", "tribune", "chance"}


MODES = ("known", "external", "unknown-sample")


def _new(board, n, seed, mode):
    g = Game.new(board, n, seed=seed)
    if mode != "known":
        pos = g.to_json()
        pos["stack_order"] = None
        pos["chance"] = "external" if mode == "external" else "sample"
        g = Game.from_json(pos)
    return g


def _sample_states(mode, games=1):
    out = []
    for board in BOARDS:
        for n in PLAYERS:
            for k in range(games):
                seed = 31 * n + k + (0 if board == "imperium" else 999)
                g = _new(board, n, seed, mode)
                rng = random.Random(seed)
                step = 0
                while not g.is_over:
                    if rng.random() < (0.25 if g.phase in MID_TURN else 0.05):
                        out.append((f"{board} {n}p seed={seed} mode={mode} step={step}", g.clone()))
                    g.apply(rng.choice(g.legal_moves()))
                    step += 1
                out.append((f"{board} {n}p seed={seed} mode={mode} over", g.clone()))
    return out


@pytest.fixture(scope="module")
def states():
    return _sample_states("known", games=2)


def test_sample_covers_mid_turn_phases(states):
    assert len(states) >= 300
    phases = {g.phase for _, g in states}
    assert MID_TURN - {"chance"} <= phases, MID_TURN - phases


def _check_round_trip(states, steps=40):
    rng = random.Random(5)
    for where, g in states:
        pos = g.to_json()
        text = json.dumps(pos)                       # plain JSON: serialisable as is
        h = Game.from_json(json.loads(text))
        assert h.to_json() == pos, where
        assert sorted(h.legal_moves()) == sorted(g.legal_moves()), where
        assert h.legal_moves() == g.legal_moves(), f"{where}: same moves, different order"
        assert h.phase == g.phase and h.decider == g.decider, where
        assert h.state.invariant_errors() == [], where
        a, b = g.clone(), h
        for i in range(steps):
            if a.is_over:
                break
            m = rng.choice(sorted(a.legal_moves()))
            a.apply(m)
            b.apply(m)
            assert a.to_json() == b.to_json(), f"{where}: diverged {i + 1} moves after the round trip"
            assert sorted(a.legal_moves()) == sorted(b.legal_moves()), where
        assert a.scores() == b.scores(), where


def test_round_trip(states):
    """Known stack order (simulation): from_json(to_json(g)) is g, and stays g when both continue."""
    _check_round_trip(states)


def test_round_trip_external_chance():
    """Chance 'external' (a real table): reveal moves come in the same order after a round trip."""
    _check_round_trip(_sample_states("external"))


def test_round_trip_unknown_order_sample():
    """stack_order null + chance 'sample': the core keeps an unknown deck in canonical order, so a loaded
    copy draws the same card with the same rng."""
    _check_round_trip(_sample_states("unknown-sample"))


def test_round_trip_json_string(states):
    where, g = states[len(states) // 2]
    assert Game.from_json(json.dumps(g.to_json())).to_json() == g.to_json()


# ------------------------------------------------------------------ malformed positions

BASE = Game.new("imperium", 3, seed=1).to_json()


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def f(p):
        d = p
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return f


def _append(*keys_and_value):
    *keys, value = keys_and_value

    def f(p):
        d = p
        for k in keys:
            d = d[k]
        d.append(value)
    return f


def _two_on_a_route(p):
    p["players"][0]["colonists"]["land"] = ["Novaria-Roma", "storehouse", "storehouse"]
    p["players"][1]["colonists"]["land"] = ["Novaria-Roma", "storehouse", "storehouse"]


def _unknown_order_dup(p):
    p["unseen"]["I"].append("Farmer")          # Farmer/I is also in the display
    p["stack_order"] = None


# (id, mutation, expected path, words the message must contain)
CORPUS = [
    ("not-object", lambda p: [1, 2], "$", "object"),
    ("wrong-format", _set("format", "chess-fen"), "$.format", "concordia-position"),
    ("wrong-version", _set("version", 2), "$.version", "not supported"),
    ("version-string", _set("version", "1"), "$.version", "integer"),
    ("unknown-board", _set("board", "mars"), "$.board", "unknown board"),
    ("one-player", lambda p: p.update(players=p["players"][:1]), "$.players", "2 to 5"),
    ("non-object-player", _set("players", 1, 5), "$.players[1]", "object"),
    ("duplicate-name", _set("players", 1, "name", "P1"), "$.players[1].name", "twice"),
    ("negative-coins", _set("players", 0, "coins", -1), "$.players[0].coins", "negative"),
    ("coins-string", _set("players", 0, "coins", "5"), "$.players[0].coins", "integer"),
    ("unknown-good", _set("players", 0, "goods", "gold", 1), "$.players[0].goods.gold", "unknown good"),
    ("negative-good", _set("players", 0, "goods", "brick", -1), "$.players[0].goods.brick", "count"),
    ("storehouse-over-12", _set("players", 0, "goods", "brick", 12), "$.players[0]", "storehouse"),
    ("4-land-colonists", _append("players", 0, "colonists", "land", "storehouse"),
     "$.players[0].colonists.land", "3 colonists"),
    ("land-colonist-on-sea-route", _set("players", 0, "colonists", "land", 1, "Massilia-Roma"),
     "$.players[0].colonists.land[1]", "land route"),
    ("sea-colonist-on-land-route", _set("players", 0, "colonists", "sea", 1, "Novaria-Roma"),
     "$.players[0].colonists.sea[1]", "sea route"),
    ("colonist-nowhere", _set("players", 0, "colonists", "land", 1, "Atlantis"),
     "$.players[0].colonists.land[1]", "Atlantis"),
    ("unknown-house-city", _set("players", 0, "houses", ["Atlantis"]), "$.players[0].houses[0]", "unknown city"),
    ("two-houses-one-city", _set("players", 0, "houses", ["Novaria", "novaria"]), "$.players[0].houses[1]",
     "second house"),
    ("unknown-card-in-hand", _set("players", 0, "hand", "Jester", 1), "$.players[0].hand.Jester", "unknown card"),
    ("hand-count-31", _set("players", 0, "hand", "Tribune", 31), "$.players[0].hand.Tribune", "0..30"),
    ("top-not-discarded", _set("players", 0, "top", "Architect"), "$.players[0].top", "discard"),
    ("unknown-city-good", _set("cities", "Atlantis", "tool"), "$.cities.Atlantis", "unknown city"),
    ("city-bad-good", _set("cities", "Londinium", "gold"), "$.cities.Londinium", "unknown good"),
    ("city-missing", lambda p: p["cities"].pop("Londinium"), "$.cities.Londinium", "missing"),
    ("province-missing", lambda p: p["provinces"].pop("Italia"), "$.provinces.Italia", "missing"),
    ("province-unknown", _set("provinces", "Atlantis", {"marker": "tool", "side": "goods"}),
     "$.provinces.Atlantis", "no such province"),
    ("province-side", _set("provinces", "Italia", "side", "heads"), "$.provinces.Italia.side", "unknown side"),
    ("display-6", lambda p: p["display"].pop(), "$.display", "7"),
    ("display-unknown-card", _set("display", 0, "Jester/I"), "$.display[0]", "unknown market card"),
    ("unseen-deck-not-used", _set("unseen", "V", ["Consul"]), "$.unseen.V", "deck"),
    ("unseen-card-not-in-deck", _set("unseen", "II", ["Mason"]), "$.unseen.II[0]", "Mason"),
    ("unseen-not-list", _set("unseen", "I", "Colonist"), "$.unseen.I", "list"),
    ("stack-order-mismatch", lambda p: p["stack_order"].pop(), "$.stack_order", "unseen"),
    ("stack-order-not-list", _set("stack_order", "Colonist/I"), "$.stack_order", "list"),
    ("chance-mode", _set("chance", "random"), "$.chance", "chance mode"),
    ("pm-unknown", _set("praefectus_magnus", "Zed"), "$.praefectus_magnus", "unknown player"),
    ("turn-missing", lambda p: p.pop("turn"), "$.turn", "missing"),
    ("turn-player-unknown", _set("turn", "player", "Zed"), "$.turn.player", "unknown player"),
    ("phase-unknown", _set("turn", "phase", "siesta"), "$.turn.phase", "unknown phase"),
    ("decider-unknown", _set("turn", "decider", "Zed"), "$.turn.decider", "unknown player"),
    ("turn-card-unknown", _set("turn", "card", "Joker"), "$.turn.card", "unknown card"),
    ("scratch-not-object", _set("turn", "scratch", "x"), "$.turn.scratch", "object"),
    ("end-concordia-unknown", _set("end", "concordia", "Zed"), "$.end.concordia", "unknown player"),
    ("rng-zero", _set("rng", 0), "$.rng", "64-bit"),
    # the core's own checks, reported under the JSON field they concern
    ("house-in-roma", _set("players", 0, "houses", ["Roma"]), "$.players[0].houses[0]", "Roma"),
    ("card-in-display-and-unseen", _unknown_order_dup, "$.unseen.I[1]", "Farmer/I"),
    ("display-card-twice", _set("display", 6, "Farmer/I"), "$.display[6]", "Farmer/I"),
    ("scratch-steps", _set("turn", "scratch", "steps", 99), "$.turn.scratch.steps", "99"),
    ("scratch-pend", _set("turn", "scratch", "pend", [[0] * 5]), "$.turn.scratch.pend", "3"),
    ("scratch-keep-player", _set("turn", "scratch", "keep_player", 7), "$.turn.scratch.keep_player", "7"),
    ("turn-number-negative", _set("turn", "number", -1), "$.turn.number", "-1"),
    ("final-turns", _set("end", "final_turns_left", 9), "$.end.final_turns_left", "9"),
    ("intermediate-vp", _set("players", 0, "intermediate_vp", "x"), "$.players[0].intermediate_vp", "integer"),
    ("marker-missing", _set("provinces", "Italia", "marker", None), "$.provinces.Italia.marker", "good"),
    ("two-colonists-on-a-route", _two_on_a_route, "$.players[1].colonists.land[0]", "Novaria-Roma"),
    # consistency across fields
    ("display-deck-not-used", _set("display", 6, "Consul/V"), "$.display[6]", "3-player"),
    ("roma-has-no-good", _set("cities", "Roma", "tool"), "$.cities.Roma", "Roma"),
    ("decider-not-turn-player", _set("turn", "decider", "P2"), "$.turn.decider", "play"),
    ("decider-chance-in-play", _set("turn", "decider", "chance"), "$.turn.decider", "chance"),
    ("intermediate-paid-string", _set("intermediate_paid", "no"), "$.intermediate_paid", "true or false"),
]


@pytest.mark.parametrize("mutate, path, words", [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_malformed(mutate, path, words):
    pos = copy.deepcopy(BASE)
    out = mutate(pos)
    if isinstance(out, list):          # the mutation replaced the whole position
        pos = out
    with pytest.raises(PositionError) as e:
        Game.from_json(pos)
    assert e.value.path == path, f"path {e.value.path!r}, message {e.value.message!r}"
    assert words.lower() in e.value.message.lower(), e.value.message
    assert str(e.value).startswith(path + ": ")


def test_corpus_size():
    assert len(CORPUS) >= 25


def test_player_names_differing_in_case():
    """Names are resolved case-insensitively ('praefectus_magnus': 'p1'), so two names that differ only in
    case are refused."""
    pos = copy.deepcopy(BASE)
    pos["players"][0]["name"] = "Ann"
    pos["players"][1]["name"] = "ann"
    pos["players"][2]["name"] = "Cy"
    pos["praefectus_magnus"] = "ann"
    pos["turn"]["player"] = pos["turn"]["decider"] = "Ann"
    with pytest.raises(PositionError) as e:
        Game.from_json(pos)
    assert e.value.path == "$.players[1].name"


def test_new_game_turn_card_is_null():
    """At phase 'play' no card is being resolved: turn.card is null and the Mercator scratch is -1."""
    pos = Game.new("imperium", 3, seed=1).to_json()
    assert pos["turn"]["phase"] == "play"
    assert pos["turn"]["card"] is None


def test_optional_fields_default():
    pos = copy.deepcopy(BASE)
    for key in ("options", "stack_order", "chance", "end", "intermediate_paid", "rng"):
        pos.pop(key)
    pos["turn"].pop("scratch")
    pos["turn"].pop("number")
    g = Game.from_json(pos)
    out = g.to_json()
    assert out["chance"] == "sample" and out["stack_order"] is None
    assert out["options"] == {"wine_variant": False, "intermediate_scoring": False}
    assert out["turn"]["number"] == 0
    assert g.legal_moves() == Game.from_json(BASE).legal_moves()


def test_names_are_case_insensitive_on_input():
    pos = copy.deepcopy(BASE)
    pos["board"] = "IMPERIUM"
    pos["praefectus_magnus"] = "p3"
    pos["display"][0] = "farmer/i"
    g = Game.from_json(pos)
    assert g.to_json()["board"] == "imperium" and g.to_json()["praefectus_magnus"] == "P3"
    assert g.to_json()["display"][0] == "Farmer/I"


# The fuzz over mutated positions (never a crash, and every accepted position continues) is in
# tests/test_loader_fuzz.py.


# ------------------------------------------------------------------ a real table

CITIES = Game.new("imperium", 3, seed=1).to_json()["cities"]
DISPLAY = ["Farmer/I", "Smith/I", "Prefect/I", "Mercator/I", "Mason/I", "Diplomat/I", "Architect/I"]


def test_from_table_layout():
    g = Game.from_table("imperium", 3, CITIES, DISPLAY, names=["Ann", "Bob", "Cy"])
    pos = g.to_json()
    assert pos["stack_order"] is None and pos["chance"] == "external"
    assert pos["cities"] == CITIES
    assert pos["display"] == DISPLAY
    unseen = pos["unseen"]
    assert set(unseen) == {"I", "II", "III"}
    assert "Farmer" not in unseen["I"] and unseen["I"] == ["Colonist"]
    # every province marker: its most valuable city good
    goods = ["brick", "food", "tool", "wine", "cloth"]
    assert pos["provinces"]["Italia"]["marker"] == "tool"
    assert all(v["side"] == "goods" for v in pos["provinces"].values())
    assert Game.from_json(pos).to_json() == pos
    assert g.phase == "play" and g.decider == 0 and g.names == ["Ann", "Bob", "Cy"]
    del goods


def test_from_table_refill_needs_reveal():
    g = Game.from_table("imperium", 3, CITIES, DISPLAY)
    g.apply("play senator")
    g.apply("buy mason")
    g.apply("done")
    assert g.phase == "chance" and g.decider == CHANCE
    assert [g.text(m) for m in g.legal_moves()] == ["reveal Colonist/I"]
    pos = g.to_json()
    assert pos["turn"]["decider"] == "chance" and pos["display"][-1] is None
    assert Game.from_json(pos).to_json() == pos          # a position can wait for the reveal
    g.apply("reveal Colonist/I")
    assert g.phase == "play" and g.decider == 1
    assert g.to_json()["unseen"].get("I", []) == []


def test_from_table_each_refilled_card_is_a_reveal():
    """Chance 'external': EVERY card refilled into the display is a `reveal` move (a core fix of 05:07
    made this pass: before, the reveal's refill() also filled the next gap from the array order)."""
    g = Game.from_table("imperium", 3, CITIES, DISPLAY)
    # empty deck I by buying two cards over two turns and revealing
    g.apply("play senator")
    g.apply("buy farmer")
    g.apply("buy mercator")
    assert g.phase == "chance"
    g.apply("reveal colonist/i")
    assert g.phase == "chance"                           # a second gap: deck II now, any of its 7 cards
    texts = sorted(g.text(m) for m in g.legal_moves())
    assert texts == sorted(f"reveal {c}/II" for c in
                           ["Architect", "Colonist", "Consul", "Mercator", "Prefect", "Vintner", "Weaver"])
    g.apply("reveal weaver/ii")
    assert g.phase == "play"


@pytest.mark.parametrize("cities, display, words", [
    ({k: v for k, v in CITIES.items() if k != "Londinium"}, DISPLAY, "Londinium"),
    (CITIES, DISPLAY[:6] + ["Jester/I"], "display[6]"),
    (CITIES, DISPLAY[:6], "7"),
    (CITIES, DISPLAY[:6] + ["Farmer/I"], "twice"),
    (CITIES, DISPLAY[:6] + ["Consul/V"], "Consul/V"),
    (CITIES, DISPLAY[:6] + [None], "display[6]"),
    (dict(CITIES, Londinium="gold"), DISPLAY, "gold"),
    (dict(CITIES, Atlantis="tool"), DISPLAY, "Atlantis"),
])
def test_from_table_bad_layout(cities, display, words):
    with pytest.raises(GameError) as e:
        Game.from_table("imperium", 3, cities, display)
    assert words in str(e.value)


def test_player_without_any_card_refused():
    """A player with no card in hand nor discard can never move: the position is a dead end one turn
    later (found by the fuzz)."""
    pos = copy.deepcopy(BASE)
    pos["players"][1]["hand"] = {}
    with pytest.raises(PositionError) as e:
        Game.from_json(pos)
    assert e.value.path.startswith("$.players[1]")


@pytest.mark.parametrize("mutate, words", [
    (_set("players", 0, "hand", "Colonist", 1), "Colonist"),          # no Colonist has left the display
    (_set("players", 0, "hand", "Tribune", 0), "Tribune"),
    (lambda p: p["players"][0]["hand"].pop("Architect"), "Architect"),
])
def test_strict_positions_account_for_every_card(mutate, words):
    pos = copy.deepcopy(BASE)
    mutate(pos)
    Game.from_json(copy.deepcopy(pos)) if words != "Tribune" else None   # a constructed position is fine
    with pytest.raises(PositionError) as e:
        Game.from_json(pos, strict=True)
    assert words in e.value.message
    assert e.value.path.startswith("$.players")


def test_strict_accepts_real_games():
    g = Game.new("italia", 4, seed=9)
    rng = random.Random(9)
    for _ in range(300):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_moves()))
        Game.from_json(g.to_json(), strict=True)
