"""Game content: the packaged data matches the counts in the reference notes, and every check fires."""

import json
import re
import shutil
from collections import Counter

import pytest

from concordia_ai.engine import content
from concordia_ai.engine.content import (
    BOARD_NAMES,
    ContentError,
    load_board,
    load_board_file,
    load_rules,
    load_rules_file,
)

# name: (start city, cities without start city, provinces, land routes, sea routes, letters)
BOARD_COUNTS = {
    "imperium": ("Roma", 30, 12, 44, 35, ("A", "B", "C", "D")),
    "italia": ("Roma", 25, 11, 40, 23, ("A", "B", "C")),
    "creta": ("Knossos", 20, 9, 27, 18, ("A", "B", "D")),
    "aegyptus": ("Memphis", 22, 10, 34, 23, ("A", "C", "D")),
}


# ----------------------------------------------------------------------------------------------
# The packaged data


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_board_counts(name):
    start, n_cities, n_provinces, n_land, n_sea, letters = BOARD_COUNTS[name]
    board = load_board(name)
    assert board.name == name
    assert board.start_city == start
    assert len(board.cities) == n_cities
    assert start not in {c.name for c in board.cities}
    assert len(board.provinces) == n_provinces
    assert len(board.land_routes) == n_land
    assert len(board.sea_routes) == n_sea
    assert board.letters_used == letters


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_token_pools_fill_the_board(name):
    rules = load_rules()
    board = load_board(name)
    per_letter = Counter(c.letter for c in board.cities)
    assert {letter: sum(rules.city_tokens[letter].values()) for letter in board.letters_used} == per_letter


def test_token_pools():
    pools = load_rules().city_tokens
    order = ("brick", "food", "tool", "wine", "cloth")
    assert {k: tuple(v[g] for g in order) for k, v in pools.items()} == {
        "A": (2, 2, 1, 1, 1),
        "B": (2, 2, 2, 1, 1),
        "C": (3, 2, 2, 2, 1),
        "D": (1, 1, 1, 1, 1),
    }
    assert sum(sum(v.values()) for v in pools.values()) == 30


def test_aegyptus_sea_route_kinds():
    special = load_board("aegyptus").special
    kinds = special["sea_route_kinds"]
    assert {k: len(v) for k, v in kinds.items()} == {"mediterranean": 3, "red_sea": 9, "nile": 11}
    assert sum(1 for r in kinds["red_sea"] if "FRANKINCENSE" in r) == 3
    assert ["GOLD", "Meroe"] in kinds["nile"]
    assert set(special["special_spaces"]) == {"FRANKINCENSE", "GOLD"}
    assert special["nile_flood"]["starts_in"] == "Kush"
    assert "sea_route_capacity" in special
    assert special["frankincense"] == {"provinces": ["Sinai", "Arabia", "Litus"], "coins": 5}
    assert special["special_square_vp"] == 7
    assert special["nile_flood"]["order_downstream"] == ["Kush", "Nubia", "Aegyptus Superior", "Arcadia",
                                                         "Aegyptus Inferior"]


def test_creta_special_and_base_boards_have_none():
    special = load_board("creta").special
    assert set(special) == {"Gavdos", "extra_cash", "variable_bonus_province", "cash_bonus_extra"}
    assert special["variable_bonus_province"] == "Brown"
    assert special["cash_bonus_extra"] == 2
    assert [p.cities for p in load_board("creta").provinces if p.name == "Brown"] == [("Gavdos",)]
    assert load_board("imperium").special == {}
    assert load_board("italia").special == {}


def test_cards():
    rules = load_rules()
    assert [c.name for c in rules.starting_hand] == [
        "Tribune", "Architect", "Prefect", "Prefect", "Mercator", "Diplomat", "Senator",
    ]
    assert [c.god for c in rules.starting_hand] == [
        "Mars", "Jupiter", "Saturnus", "Saturnus", "Mercurius", "Jupiter", "Vesta",
    ]
    assert all(c.deck is None and c.cost == () for c in rules.starting_hand)
    assert rules.starting_hand[4].coins == 3
    assert list(rules.decks) == ["I", "II", "III", "IV", "V"]
    assert [len(d) for d in rules.decks.values()] == [8, 7, 6, 5, 4]
    assert sum(len(d) for d in rules.decks.values()) == 30
    for numeral, deck in rules.decks.items():
        assert all(c.deck == numeral for c in deck)
    market = [c for d in rules.decks.values() for c in d]
    assert all(c.coins == 5 for c in market if c.name == "Mercator")
    minerva = {c.name: (c.minerva_good, c.minerva_vp) for c in market if c.god == "Minerva"}
    assert minerva == {
        "Mason": ("brick", 3), "Farmer": ("food", 3), "Smith": ("tool", 3),
        "Vintner": ("wine", 4), "Weaver": ("cloth", 5),
    }
    assert rules.concordia_vp == 7


def test_rules_constants():
    rules = load_rules()
    assert rules.goods == ("brick", "food", "tool", "wine", "cloth")
    assert rules.price == {"brick": 3, "food": 4, "tool": 5, "wine": 6, "cloth": 7}
    assert rules.house_goods["brick"] == ("food",)
    assert rules.house_goods["cloth"] == ("brick", "cloth")
    assert rules.house_coins == {"brick": 1, "food": 2, "tool": 3, "wine": 4, "cloth": 5}
    assert rules.colonist_cost == ("food", "tool")
    assert rules.bonus_marker_coins["cloth"] == 1 and rules.bonus_marker_coins["brick"] == 2
    assert rules.market_surcharge["standard"][6] == ("cloth", "cloth")
    assert rules.market_surcharge["wine_variant"][5] == ("any", "wine")
    assert all(len(side) == 7 for side in rules.market_surcharge.values())
    assert (rules.houses_per_player, rules.land_colonists, rules.sea_colonists, rules.storehouse_slots) == (15, 3, 3, 12)
    assert rules.start_goods == {"brick": 1, "food": 2, "tool": 1, "wine": 1, "cloth": 1}
    assert rules.start_colonists_on_board == {"land": 1, "sea": 1}
    assert rules.coins_by_seat == (5, 6, 7, 8, 9)


def test_load_board_names_and_cache():
    assert load_board("Imperium") is load_board("imperium")
    with pytest.raises(ContentError, match="unknown board 'atlantis'.*imperium, italia, creta, aegyptus"):
        load_board("atlantis")


def test_dataclasses_are_frozen():
    board = load_board("italia")
    with pytest.raises(AttributeError):
        board.start_city = "Napoli"
    with pytest.raises(AttributeError):
        load_rules().starting_hand[0].god = "Vesta"


# ----------------------------------------------------------------------------------------------
# Every check fires on a corrupted copy, naming the file and the JSON path


@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(content.DATA_DIR, target)
    return target


def _edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _city(data, name):
    return next(c for c in data["cities"] if c["name"] == name)


def _province(data, name):
    return next(p for p in data["provinces"] if p["name"] == name)


def _move_city(data):
    # Olisipo listed in Hispania but claims Gallia.
    _city(data, "Olisipo")["province"] = "Gallia"


def _add_city_unlisted(data):
    data["cities"].append({"name": "Ultima Thule", "letter": "A", "province": "Britannia"})


def _isolate(data):
    data["land_routes"] = [r for r in data["land_routes"] if "Tomis" not in r]
    data["sea_routes"] = [r for r in data["sea_routes"] if "Tomis" not in r]


MAP_CORRUPTIONS = [
    ("imperium", lambda d: d["land_routes"].append(["Roma", "Atlantis"]), r"land_routes\[44\]\[1\]: unknown city 'Atlantis'"),
    ("imperium", lambda d: d["sea_routes"].append(["Roma", "Roma"]), r"sea_routes\[35\]: route from 'Roma' to itself"),
    ("imperium", lambda d: d["land_routes"].append(list(reversed(d["land_routes"][0]))), r"land_routes\[44\]: duplicate route"),
    ("imperium", _move_city, r"provinces\[2\]\.cities\[1\]: city 'Olisipo' says its province is 'Gallia'"),
    ("imperium", lambda d: _province(d, "Gallia")["cities"].append("Olisipo"), r"provinces\[1\]\.cities\[3\]: .*Olisipo"),
    ("imperium", _add_city_unlisted, r"cities\[30\]\.province: city 'Ultima Thule' is not listed in any province"),
    ("imperium", lambda d: _province(d, "Gallia")["cities"].append("Atlantis"), r"provinces\[1\]\.cities\[3\]: unknown city 'Atlantis'"),
    ("imperium", lambda d: d["cities"].append(dict(d["cities"][0])), r"cities\[30\]: duplicate city 'Isca Dumnoniorum'"),
    ("imperium", lambda d: d["letters_used"].remove("D"), r"cities\[10\]\.letter: letter 'D' is not in letters_used"),
    ("italia", lambda d: d["letters_used"].append("D"), r"letters_used\[3\]: no city uses letter 'D'"),
    ("imperium", lambda d: d["letters_used"].append("Q"), r"letters_used\[4\]: unknown token letter 'Q'"),
    ("imperium", lambda d: _city(d, "Aquileia").update(letter="A"), r"letters_used\[0\]: 8 cities have letter 'A' but its token pool has 7"),
    ("imperium", _isolate, r"land_routes: map is not connected: no route from Roma to Tomis"),
    ("imperium", lambda d: d["cities"][0].pop("letter"), r"cities\[0\]\.letter: missing"),
    ("imperium", lambda d: d["cities"][0].update(colour="red"), r"cities\[0\]\.colour: unknown field"),
    ("imperium", lambda d: d.update(recommended_players=[3, 6]), r"recommended_players\[1\]: at most 5 players"),
    ("aegyptus", lambda d: d["land_routes"].append(["Memphis", "GOLD"]), r"land_routes\[34\]\[1\]: unknown city 'GOLD'"),
    ("aegyptus", lambda d: d["special"]["sea_route_kinds"]["nile"].pop(), r"sea_routes\[\d+\]: .* has no kind in special\.sea_route_kinds"),
    ("aegyptus", lambda d: d["special"]["special_spaces"]["GOLD"]["connected_by_sea_to"].append("Napata"), r"special\.special_spaces\.GOLD\.connected_by_sea_to: does not match"),
    ("aegyptus", lambda d: d["special"]["nile_flood"].update(starts_in="Atlantis"), r"special\.nile_flood\.starts_in: unknown province 'Atlantis'"),
    ("creta", lambda d: d.update(name="kreta"), r"name: 'kreta' does not match the file name 'creta'"),
    ("creta", lambda d: d["special"].update(variable_bonus_province="Gavdos"), r"special\.variable_bonus_province: unknown province 'Gavdos'"),
    ("creta", lambda d: d["special"].update(cash_bonus_extra="2"), r"special\.cash_bonus_extra: expected an integer, got '2'"),
    ("creta", lambda d: d["special"].update(cash_bonus_extra=-1), r"special\.cash_bonus_extra: expected at least 0, got -1"),
    ("creta", lambda d: d["special"].update(special_square_vp=7), r"special\.special_square_vp: the board has no special_spaces"),
    ("creta", lambda d: d["special"].update(frankincense={"provinces": ["Brown"], "coins": 5}), r"special\.frankincense: needs the special square FRANKINCENSE"),
    ("aegyptus", lambda d: d["special"]["frankincense"]["provinces"].append("Atlantis"), r"special\.frankincense\.provinces\[3\]: unknown province 'Atlantis'"),
    ("aegyptus", lambda d: d["special"]["frankincense"]["provinces"].append("Sinai"), r"special\.frankincense\.provinces\[3\]: duplicate province 'Sinai'"),
    ("aegyptus", lambda d: d["special"]["frankincense"].update(coins=0), r"special\.frankincense\.coins: expected at least 1, got 0"),
    ("aegyptus", lambda d: d["special"]["frankincense"].pop("coins"), r"special\.frankincense\.coins: missing"),
    ("aegyptus", lambda d: d["special"]["frankincense"].update(gold=1), r"special\.frankincense\.gold: unknown field"),
    ("aegyptus", lambda d: d["special"].update(special_square_vp=True), r"special\.special_square_vp: expected an integer, got True"),
    ("aegyptus", lambda d: d["special"].update(sea_route_capacity=3), r"special\.sea_route_capacity: expected true or a text starting 'unlimited', got 3"),
    ("aegyptus", lambda d: d["special"]["nile_flood"]["order_downstream"].append("Kush"), r"special\.nile_flood\.order_downstream\[5\]: duplicate province 'Kush'"),
]


@pytest.mark.parametrize("name,change,message", MAP_CORRUPTIONS)
def test_map_checks_fire(data_copy, name, change, message):
    path = data_copy / "maps" / f"{name}.json"
    _edit(path, change)
    with pytest.raises(ContentError, match=f"^{re.escape(str(path.resolve()))}: {message}"):
        load_board(name, data_copy)


def _deck_I(data):
    return data["cards"]["market"]["I"]


RULES_CORRUPTIONS = [
    (lambda d: _deck_I(d).pop(), r"cards\.market\.I: expected 8 entries, got 7"),
    (lambda d: d["cards"]["market"]["V"].append(dict(_deck_I(d)[0])), r"cards\.market\.V: expected 4 entries, got 5"),
    (lambda d: d["cards"]["starting_hand"].pop(), r"cards\.starting_hand: expected 7 entries, got 6"),
    (lambda d: _deck_I(d)[3].update(god="Neptunus"), r"cards\.market\.I\[3\]\.god: unknown god 'Neptunus'"),
    (lambda d: _deck_I(d)[0].update(cost=["gold"]), r"cards\.market\.I\[0\]\.cost\[0\]: unknown good 'gold'"),
    (lambda d: _deck_I(d)[5].pop("minerva_good"), r"cards\.market\.I\[5\]\.minerva_good: missing"),
    (lambda d: _deck_I(d)[0].update(minerva_good="food", minerva_vp=3), r"cards\.market\.I\[0\]\.minerva_good: only Minerva"),
    (lambda d: d["cards"]["market"].pop("V"), r"cards\.market\.V: missing"),
    (lambda d: d["market_surcharge"]["standard"].pop(), r"market_surcharge\.standard: expected 7 entries, got 6"),
    (lambda d: d["market_surcharge"]["wine_variant"][3].append("gold"), r"market_surcharge\.wine_variant\[3\]\[1\]: unknown good 'gold'"),
    (lambda d: d["city_tokens"]["A"].update(gold=1), r"city_tokens\.A\.gold: unknown field"),
    (lambda d: d["price"].pop("wine"), r"price\.wine: missing"),
    (lambda d: d["price"].update(wine="six"), r"price\.wine: expected an integer"),
    (lambda d: d["goods"].append("brick"), r"goods\[5\]: duplicate good 'brick'"),
    (lambda d: d["house_cost"]["tool"].update(goods=["brick", "iron"]), r"house_cost\.tool\.goods\[1\]: unknown good 'iron'"),
    (lambda d: d["player_setup"]["start_colonists_on_board"].update(sea=4), r"player_setup\.start_colonists_on_board\.sea: more than"),
]


@pytest.mark.parametrize("change,message", RULES_CORRUPTIONS)
def test_rules_checks_fire(data_copy, change, message):
    path = data_copy / "game.json"
    _edit(path, change)
    with pytest.raises(ContentError, match=f"^{re.escape(str(path.resolve()))}: {message}"):
        load_rules(data_copy)


def test_token_pool_checked_against_rules(data_copy):
    _edit(data_copy / "game.json", lambda d: d["city_tokens"]["C"].update(brick=2))
    with pytest.raises(ContentError, match=r"italia\.json: letters_used\[2\]: 10 cities have letter 'C' but its token pool has 9"):
        load_board("italia", data_copy)


def test_file_level_errors(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"name": ')
    with pytest.raises(ContentError, match=r"broken\.json: line 1 column \d+: invalid JSON"):
        load_board_file(bad)
    with pytest.raises(ContentError, match=r"missing\.json: \(file\): cannot read"):
        load_rules_file(tmp_path / "missing.json")
    bad.write_text("[]")
    with pytest.raises(ContentError, match=r"broken\.json: \(top\): expected an object, got list"):
        load_board_file(bad)


def test_packaged_files_name_themselves_relative_to_the_package(data_copy):
    # Errors in the packaged data name the file as concordia_ai/data/...; copies by their full path.
    with pytest.raises(ContentError, match=r"^concordia_ai/data/maps/nowhere\.json: \(file\): cannot read"):
        load_board_file(content.DATA_DIR / "maps" / "nowhere.json")
