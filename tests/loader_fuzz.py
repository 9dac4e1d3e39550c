"""Mutated positions through the loader: every accepted one must continue (issue 11, class 8).

    python tests/loader_fuzz.py SEED CASES [STEPS]   # one summary line; exit 1 on the first failure

Bases are real positions of every board at many phases (random games, seeded). A case mutates one
to three spots of a base's JSON (numbers near every bound, list items dropped, doubled or swapped,
keys dropped or added (an added key that is no field of its object must be refused, at every level:
checked on the spot, and the case goes on without it), values of another type, names with spaces or another case, values copied
from elsewhere in the position) and loads it, loose and strict. Whatever is accepted must
  (a) have a legal move, or be over;
  (b) survive to_json -> from_json unchanged;
  (c) play on with random moves for STEPS steps, each position keeping the core's invariants
      (except the card count of a real game, which loose positions may break on purpose), and
  (d) be savable again: from_json(json.dumps(to_json())) at the end.
Run by tests/test_loader_fuzz.py in a subprocess (a crash in the core would take pytest down).
"""
from __future__ import annotations

import copy
import json
import random
import re
import sys
import traceback

from concordia_ai.engine import position_fields as fields
from concordia_ai.engine.game import Game, GameError
from concordia_ai.engine.position import PositionError

STEPS = 40
REAL_GAME_ONLY = re.compile(r"player \d+: only \d+ cards")   # a loose position may own fewer cards
BIG = [2 ** 20, 2 ** 20 + 1, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 2 ** 63, 2 ** 64, 10 ** 30]
VALUES = [None, -1, 0, 1, 2, 3, 5, 6, 7, 12, 15, 30, 31, 60, 61, 99, 1.5, float("nan"), True, False, "", " ",
          "x", "Roma", "storehouse", "chance", "nobody", "Mason/I", "Tribune", "brick", "gold", [], [None], {},
          {"a": 1}, "\x00", "I", "V", "play", "over", "architect-move", "keep", "mercator"] + BIG + [-b for b in BIG]


def bases(rng: random.Random) -> list[dict]:
    out = []
    for board in ("imperium", "italia", "creta", "aegyptus"):
        for n in (2, 3, 5):
            g = Game.new(board, n, seed=rng.randrange(10 ** 6))
            out.append(g.to_json())
            r = random.Random(rng.randrange(10 ** 6))
            for i in range(400):
                if g.is_over:
                    break
                if r.random() < 0.08:
                    out.append(g.to_json())
                g.apply(r.choice(g.legal_moves()))
            out.append(g.to_json())
    return out


def spots(o, path=()):
    yield path, o
    if isinstance(o, dict):
        for k, v in o.items():
            yield from spots(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from spots(v, path + (i,))


def table_path(path: tuple) -> str:
    """The field table's path of the object at `path` ("players[].colonists", "provinces{}", "$")."""
    out = ""
    for i, k in enumerate(path):
        if isinstance(k, int):
            out += "[]"
        elif i and path[i - 1] == "provinces" and len(path) >= 2 and path[0] == "provinces":
            out += "{}"
        else:
            out += ("." if out else "") + k
    return out or "$"


def unknown_field_refused(pos: dict, at: tuple, key: str, value) -> None:
    trial = copy.deepcopy(pos)
    parent = trial
    for k in at:
        parent = parent[k]
    parent[key] = value
    try:
        Game.from_json(trial)
    except PositionError as e:
        if "unknown field" in e.message or e.path != "$." + ".".join(map(str, at)) + f".{key}":
            return           # refused (an earlier field may be refused first)
    raise AssertionError(f"an unknown field {key!r} at {at} was not refused: {json.dumps(trial)[:2000]}")


def mutate(pos: dict, rng: random.Random) -> dict:
    for _ in range(rng.randint(1, 3)):
        every = list(spots(pos))
        path, value = rng.choice(every)
        if not path:
            continue
        parent = pos
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        r = rng.random()
        if r < 0.10 and isinstance(parent, dict):
            parent.pop(key)
        elif r < 0.16 and isinstance(parent, list):
            parent.pop(key)
        elif r < 0.22 and isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        elif r < 0.28 and isinstance(parent, list) and len(parent) > 1:
            j = rng.randrange(len(parent))
            parent[key], parent[j] = parent[j], parent[key]
        elif r < 0.32 and isinstance(parent, dict) and fields.children(table_path(path[:-1])):
            # a field the format does not know: refused at every level (checked here), then left out
            unknown_field_refused(pos, path[:-1], "zz" + str(rng.randint(0, 9)), rng.choice(VALUES))
        elif r < 0.32 and isinstance(parent, dict):
            parent["zz" + str(rng.randint(0, 9))] = rng.choice(VALUES)     # a name no map knows
        elif r < 0.50 and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = value + rng.choice([-2, -1, 1, 2, 5, 30]) if rng.random() < 0.6 else rng.choice(BIG)
        elif r < 0.58 and isinstance(value, str):
            parent[key] = rng.choice([f" {value}", f"{value} ", value.upper(), value.lower(), value + value])
        elif r < 0.72:
            # a value of the same type from elsewhere in the position (a real place, card or name)
            same = [v for _p, v in every if type(v) is type(value) and v != value]
            parent[key] = copy.deepcopy(rng.choice(same)) if same else None
        elif r < 0.80 and isinstance(parent, dict) and isinstance(key, str):
            parent[rng.choice([key.upper(), key + " ", key[:-1]]) if key else "x"] = parent.pop(key)
        else:
            parent[key] = copy.deepcopy(rng.choice(VALUES))
    return pos


def check(g: Game, rng: random.Random, where: str, steps: int = STEPS) -> None:
    def invariants(h):
        errs = [e for e in h.state.invariant_errors() if not REAL_GAME_ONLY.fullmatch(e)]
        assert not errs, f"{where}: invariant broken: {errs}"

    assert g.is_over or g.legal_moves(), f"{where}: accepted a dead end (not over, no legal move)"
    invariants(g)
    again = Game.from_json(g.to_json())
    assert again.to_json() == g.to_json(), f"{where}: to_json/from_json changed the position"
    for step in range(steps):
        if g.is_over:
            break
        legal = g.legal_moves()
        assert legal, f"{where}: dead end after {step} random moves (phase {g.phase})"
        g.apply(rng.choice(legal))
        invariants(g)
    try:
        Game.from_json(json.dumps(g.to_json()))
    except GameError as e:
        raise AssertionError(f"{where}: not savable after {steps} random moves: {e}") from None


def main(seed: int, cases: int, steps: int = STEPS) -> int:
    rng = random.Random(seed)
    base = bases(rng)
    accepted = refused = 0
    for i in range(cases):
        pos = mutate(copy.deepcopy(rng.choice(base)), rng)
        for strict in (False, True):
            where = f"case {i} (seed {seed}, strict={strict})"
            try:
                g = Game.from_json(pos, strict=strict)
            except GameError:
                refused += 1
                continue
            except Exception:
                print(f"{where}: from_json raised something other than GameError\n{traceback.format_exc()}"
                      f"\n{json.dumps(pos)}")
                return 1
            accepted += 1
            try:
                check(g, random.Random(i), where, steps)
            except Exception:
                print(f"{traceback.format_exc()}\n{json.dumps(pos)}")
                return 1
    print(f"bases {len(base)} cases {cases} accepted {accepted} refused {refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:4])))
