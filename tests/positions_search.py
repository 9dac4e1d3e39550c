"""Constructed positions for the search, sampler and bot tests (import only).

Every position is a 2-player Imperium game built from `positions.base` (fixed city layout), edited field by
field; each helper returns a fresh `Game`. The expected best moves are documented where they are used.
"""
from __future__ import annotations

import copy
import math

from concordia_ai.engine.game import Game
from positions import base, gds, load, set_cities, set_player, set_turn

# Seat 0's and seat 1's houses for the end-game positions (14 each: one more house ends the game).
HOUSES_0 = ["Isca Dumnoniorum", "Londinium", "Burdigala", "Lutetia", "Massilia", "Brigantium", "Olisipo",
            "Valentia", "Colonia Agrippina", "Vindobona", "Napoca", "Sirmium", "Tomis", "Athenae"]
HOUSES_1 = ["Aquileia", "Novaria", "Syracusae", "Carthago", "Rusadir", "Dyrrhachium", "Cyrene", "Leptis Magna",
            "Attalia", "Byzantium", "Sinope", "Antiochia", "Tyros", "Petra"]

DECK_I_UNSEEN = ["Colonist", "Farmer", "Smith"]
DECK_II_UNSEEN = ["Colonist", "Mercator", "Prefect", "Vintner"]


def small_deck_pos(stack_order="null") -> dict:
    """2 players; the unseen deck I has 3 cards (Colonist, Farmer, Smith) above 4 cards of deck II.
    Seat 0 (to play, 20 coins, goods to buy anything) holds a Senator. `stack_order`: "null" (unknown order)
    or a list of labels, top first."""
    pos = base(2)
    pos["display"] = ["Mercator/I", "Mason/I", "Prefect/I", "Diplomat/I", "Architect/II", "Consul/II", "Weaver/II"]
    pos["unseen"] = {"I": list(DECK_I_UNSEEN), "II": list(DECK_II_UNSEEN)}
    pos["stack_order"] = None if stack_order == "null" else list(stack_order)
    pos["players"][0]["hand"]["Architect"] = 2          # the Architect/I that left the display was bought
    set_player(pos, 0, coins=20, goods=gds(brick=2, food=2, tool=1, wine=2, cloth=1))
    set_turn(pos, 0)
    return pos


def small_deck_game(stack_order="null") -> Game:
    return load(small_deck_pos(stack_order))


def last_card_game() -> Game:
    """The stack is empty and one card (Mason/I) is left in the display. Seat 0 leads 19 to 11 and holds a
    Senator; seat 1 holds one too. Buying the last card ends the game (+7 Concordia) with seat 0 ahead;
    otherwise seat 1 buys it next turn. Best: `play Senator`, then `buy Mason/I`."""
    pos = base(2)
    set_player(pos, 0, coins=3, goods=gds(food=1, brick=1, cloth=1), houses=["Lutetia", "Athenae", "Olisipo"],
               land=["Lutetia-Massilia"])
    set_player(pos, 1, coins=3, goods=gds(food=1, brick=1, cloth=1), houses=["Vindobona", "Napoca"],
               land=["Vindobona-Colonia Agrippina"])
    pos["display"] = ["Mason/I"] + [None] * 6
    pos["unseen"] = {}
    pos["stack_order"] = []
    set_turn(pos, 0)
    return load(pos)


def fifteenth_house_game() -> Game:
    """Seat 0 has 14 houses, leads 50 to 46, has played Architect and moved its sea colonist to
    Carthago-Roma: `build Carthago` is its 15th house and ends the game (+7 Concordia). Seat 1 (14 houses,
    no coins, no goods) can do little in its final turn."""
    pos = base(2)
    set_player(pos, 0, coins=10, goods=gds(food=1, brick=2, tool=1), houses=HOUSES_0, land=["Lutetia-Massilia"],
               sea=["Roma"])
    set_player(pos, 1, coins=0, goods=gds(), houses=HOUSES_1, land=["Alexandria-Memphis"])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    g.apply("move sea Roma > Carthago-Roma")
    return g


def prefect_game() -> Game:
    """Seat 0 has played a Prefect. Its houses: Alexandria, Memphis, Petra (all cloth: Aegyptus pays
    3 cloth + the cloth bonus = 28 sestertii), Olisipo (brick), Massilia (food). Best: `produce Aegyptus`."""
    pos = base(2)
    set_player(pos, 0, coins=5, goods=gds(), houses=["Alexandria", "Memphis", "Petra", "Olisipo", "Massilia"],
               hand={"Prefect": 1, "Tribune": 1, "Architect": 1})
    set_player(pos, 1, coins=5, goods=gds(), houses=["Lutetia", "Olisipo", "Novaria", "Massilia", "Vindobona"])
    set_cities(pos, {"Alexandria": "cloth", "Memphis": "cloth", "Petra": "cloth", "Olisipo": "brick",
                     "Massilia": "food", "Lutetia": "brick", "Burdigala": "food", "Novaria": "brick",
                     "Vindobona": "brick"})
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Prefect")
    return g


def useless_card_game() -> Game:
    """Seat 0's final turn (seat 1 ended the game). Seat 0 has played a Senator; the display holds only
    Weaver/II and Vintner/II, whose Minerva points need cloth / wine cities where seat 0 has no house, and
    paying for either lowers seat 0's Vesta. Best: `done`."""
    pos = base(2)
    set_player(pos, 0, coins=10, goods=gds(cloth=2, brick=2, wine=2), houses=["Olisipo", "Vindobona", "Napoca"])
    set_player(pos, 1, coins=10, goods=gds(), houses=["Syracusae", "Rusadir", "Attalia"])
    pos["display"] = ["Weaver/II", "Vintner/II"] + [None] * 5
    pos["unseen"] = {}
    pos["stack_order"] = []
    pos["end"] = {"concordia": "P2", "trigger_this_turn": False, "final_turns_left": 1}
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Senator")
    return g


def keep_game(bricks: int, food: int) -> Game:
    """Seat 0 produces Aegyptus (houses in Alexandria = brick and Memphis = cloth, cloth bonus) with one free
    storehouse space: the keep choice is `keep brick` or `keep cloth`."""
    pos = base(2)
    set_player(pos, 0, coins=5, goods=gds(brick=bricks, food=food), houses=["Alexandria", "Memphis"],
               hand={"Prefect": 1, "Tribune": 1, "Architect": 1})
    set_player(pos, 1, coins=5, goods=gds(), houses=["Lutetia"])
    set_cities(pos, {"Alexandria": "brick", "Memphis": "cloth", "Petra": "food"})
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Aegyptus")
    return g


# ---------------------------------------------------------------- chi-square without scipy

# Upper critical values of the chi-square distribution at p = 0.001, by degrees of freedom.
CHI2_CRIT_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 11: 31.264,
                 23: 49.728}


def chi_square(counts: list[int]) -> float:
    """Pearson's statistic against the uniform distribution over len(counts) outcomes."""
    total = sum(counts)
    expected = total / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def chi2_critical(df: int, p: float = 0.001) -> float:
    try:
        from scipy.stats import chi2
        return float(chi2.ppf(1 - p, df))
    except ImportError:
        assert p == 0.001 and df in CHI2_CRIT_001, "no scipy: only the tabulated p = 0.001 values"
        return CHI2_CRIT_001[df]


def clone_pos(pos: dict) -> dict:
    return copy.deepcopy(pos)


assert math.isclose(CHI2_CRIT_001[5], 20.515)
