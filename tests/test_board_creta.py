"""Creta (expansion rule text 003, RULINGS 25-28, 33, 34): start city Knossos, Gavdos' variable bonus,
the +2 on every cash bonus. Exact numbers on constructed positions."""

import pytest

from concordia_ai.engine import game as game_mod
from concordia_ai.engine.game import Game

GOODS = ("brick", "food", "tool", "wine", "cloth")
NO_GOODS = {g: 0 for g in GOODS}


def position(players=3, cities=None, seed=1):
    """A fresh Creta position (turn of P1, phase play) with the given city goods and matching markers."""
    pos = Game.new("creta", players, seed=seed).to_json()
    if cities:
        pos["cities"].update(cities)
    board = Game.new("creta", players, seed=seed).board
    pos["provinces"] = game_mod._markers(board, pos["cities"], GOODS)
    pos["praefectus_magnus"] = f"P{players}"          # not P1 unless a test says so
    for p in pos["players"]:
        p["goods"] = dict(NO_GOODS)
        p["coins"] = 0
    return pos


def legal_texts(g):
    return sorted(g.text(m) for m in g.legal_moves())


def player(g, i):
    return g.to_json()["players"][i]


# ------------------------------------------------------------------------------------------ setup


def test_setup_start_city_knossos():
    g = Game.new("creta", 4, seed=3)
    pos = g.to_json()
    for p in pos["players"]:
        assert p["colonists"] == {"land": ["Knossos", "storehouse", "storehouse"],
                                  "sea": ["Knossos", "storehouse", "storehouse"]}
    assert "Knossos" not in pos["cities"]
    assert pos["provinces"]["Brown"] == {"marker": None, "side": "goods"}
    # every other province has the marker of its most valuable city good
    for name, entry in pos["provinces"].items():
        if name != "Brown":
            assert entry["marker"] is not None and entry["side"] == "goods"
    assert "nile_marker" not in pos


def test_tribune_colonist_goes_to_knossos():
    pos = position()
    me = pos["players"][0]
    me["goods"].update(food=1, tool=1)
    me["hand"] = {"Tribune": 1}
    g = Game.from_json(pos)
    g.apply("play Tribune")
    assert legal_texts(g) == ["colonist land", "colonist sea", "done"]
    g.apply("colonist sea")
    assert player(g, 0)["colonists"]["sea"] == ["Knossos", "Knossos", "storehouse"]
    assert player(g, 0)["goods"] == NO_GOODS


def test_colonist_card_places_in_knossos_and_house_cities_only():
    pos = position()
    me = pos["players"][0]
    me["goods"].update(food=1, tool=1)
    me["hand"] = {"Tribune": 1, "Colonist": 1}
    me["houses"] = ["Gortyn"]
    g = Game.from_json(pos)
    g.apply("play Colonist")
    assert legal_texts(g) == ["cash", "done", "place land Gortyn", "place land Knossos",
                              "place sea Gortyn", "place sea Knossos"]
    g.apply("place land Knossos")
    assert player(g, 0)["colonists"]["land"] == ["Knossos", "Knossos", "storehouse"]


def test_no_house_in_knossos():
    pos = position(cities={"Chersonasos": "wine"})
    me = pos["players"][0]
    me["coins"] = 50
    me["goods"] = dict(NO_GOODS, brick=2, wine=2)
    me["hand"] = {"Tribune": 1, "Architect": 1}
    me["colonists"]["land"] = ["Chersonasos-Knossos", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    builds = [t for t in legal_texts(g) if t.startswith("build")]
    assert builds == ["build Chersonasos"]
    pos["players"][0]["houses"] = ["Knossos"]
    with pytest.raises(Exception, match="Knossos|no house"):
        Game.from_json(pos)


# ------------------------------------------------------------------------------------------ Gavdos


def test_gavdos_producer_chooses_any_good():
    pos = position(cities={"Gavdos": "food"})
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    g = Game.from_json(pos)
    g.apply("play Prefect")
    brown = [t for t in legal_texts(g) if t.startswith("produce Brown")]
    assert brown == [f"produce Brown {x}" for x in sorted(GOODS)]


def test_gavdos_production_marker_coin_side_and_city_goods():
    pos = position(cities={"Gavdos": "food"})
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 2}
    pos["players"][1]["houses"] = ["Gavdos"]
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("produce Brown cloth")
    after = g.to_json()
    assert after["provinces"]["Brown"] == {"marker": "cloth", "side": "coins"}
    assert after["players"][0]["goods"] == dict(NO_GOODS, cloth=1)      # the chosen bonus, not doubled
    assert after["players"][1]["goods"] == dict(NO_GOODS, food=1)       # the house in Gavdos (food city)
    assert after["players"][2]["goods"] == NO_GOODS


def test_gavdos_not_producible_while_coin_side_up():
    pos = position(cities={"Gavdos": "food"})
    pos["provinces"]["Brown"] = {"marker": "wine", "side": "coins"}
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    g = Game.from_json(pos)
    g.apply("play Prefect")
    assert not [t for t in legal_texts(g) if t.startswith("produce Brown")]


def test_gavdos_bonus_doubled_by_praefectus_magnus():
    pos = position(cities={"Gavdos": "food"})
    pos["praefectus_magnus"] = "P1"
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    pos["players"][0]["houses"] = ["Gavdos"]
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("produce Brown tool")
    after = g.to_json()
    assert after["players"][0]["goods"] == dict(NO_GOODS, tool=2, food=1)
    assert after["praefectus_magnus"] == "P3"        # passed to the right
    assert after["provinces"]["Brown"] == {"marker": "tool", "side": "coins"}


@pytest.mark.parametrize("good,coins", [("brick", 2), ("food", 2), ("tool", 2), ("wine", 2), ("cloth", 1)])
def test_gavdos_marker_counts_for_cash_then_is_removed(good, coins):
    pos = position(cities={"Gavdos": "food"})
    pos["provinces"]["Brown"] = {"marker": good, "side": "coins"}
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    pos["players"][1]["hand"] = {"Tribune": 1, "Prefect": 1}
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("cash")
    after = g.to_json()
    assert after["players"][0]["coins"] == coins + 2         # Gavdos marker + the Creta extra 2
    assert after["provinces"]["Brown"] == {"marker": None, "side": "goods"}
    # Gavdos can be produced again, with a new choice
    assert after["turn"]["player"] == "P2"
    g.apply("play Prefect")
    assert [t for t in legal_texts(g) if t.startswith("produce Brown")] == \
        [f"produce Brown {x}" for x in sorted(GOODS)]
    g.apply("produce Brown wine")
    assert g.to_json()["provinces"]["Brown"] == {"marker": "wine", "side": "coins"}
    assert player(g, 1)["goods"] == dict(NO_GOODS, wine=1)


def test_cash_with_gavdos_and_other_markers():
    pos = position(cities={"Gavdos": "food", "Gortyn": "brick", "Matalon": "cloth",
                           "Chersonasos": "wine", "Lyktos": "food", "Olus": "brick"})
    pos["provinces"]["Brown"] = {"marker": "cloth", "side": "coins"}
    pos["provinces"]["Blue"] = {"marker": "cloth", "side": "coins"}
    pos["provinces"]["Grey"] = {"marker": "wine", "side": "coins"}
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    pos["players"][0]["coins"] = 3
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("cash")
    after = g.to_json()
    assert after["players"][0]["coins"] == 3 + 1 + 1 + 2 + 2     # Brown cloth, Blue cloth, Grey wine, +2
    assert all(v["side"] == "goods" for v in after["provinces"].values())
    assert after["provinces"]["Brown"]["marker"] is None
    assert after["provinces"]["Blue"]["marker"] == "cloth"


def test_every_cash_pays_two_more_even_with_nothing_flipped():
    pos = position()
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    pos["players"][0]["coins"] = 4
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("cash")
    assert player(g, 0)["coins"] == 6


def test_cash_through_diplomat_also_pays_the_extra():
    pos = position()
    pos["players"][0]["hand"] = {"Tribune": 1, "Diplomat/Jupiter": 1}
    pos["players"][2]["discard"] = {"Prefect": 1}
    pos["players"][2]["top"] = "Prefect"
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("cash")
    assert player(g, 0)["coins"] == 2


def test_gavdos_production_through_diplomat():
    pos = position(cities={"Gavdos": "brick"})
    pos["players"][0]["hand"] = {"Tribune": 1, "Diplomat/Jupiter": 1}
    pos["players"][2]["discard"] = {"Prefect": 1}
    pos["players"][2]["top"] = "Prefect"
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("produce Brown food")
    assert player(g, 0)["goods"] == dict(NO_GOODS, food=1)


def test_imperium_cash_has_no_extra():
    pos = Game.new("imperium", 3, seed=1).to_json()
    pos["players"][0]["hand"] = {"Tribune": 1, "Prefect": 1}
    pos["players"][0]["coins"] = 4
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("cash")
    assert player(g, 0)["coins"] == 4


# ------------------------------------------------------------------------------------------ positions


def test_position_round_trip_gavdos_states():
    for marker, side in ((None, "goods"), ("tool", "coins"), ("cloth", "coins")):
        pos = position(cities={"Gavdos": "wine"})
        pos["provinces"]["Brown"] = {"marker": marker, "side": side}
        g = Game.from_json(pos)
        again = Game.from_json(g.to_json())
        assert again.to_json() == g.to_json()
        assert again.to_json()["provinces"]["Brown"] == {"marker": marker, "side": side}


def test_position_rejects_gavdos_coin_side_without_good():
    pos = position()
    pos["provinces"]["Brown"] = {"marker": None, "side": "coins"}
    with pytest.raises(Exception, match="marker"):
        Game.from_json(pos)

