"""Plan bots' rule language: a strategy as a few priority rules in TOML (see docs/plans.md).

    type = "plan"
    name = "minerva"
    buy = ["Mason", "Farmer", "*"]      # which cards the Senator and the Consul buy, first affordable wins
    build = "max"                        # build every house the money allows

Every rule has a default that leaves its decision to the greedy one-step evaluation (or, where
that evaluation cannot tell the moves apart, to a simple scoring), so a two-line plan is a valid
bot. This module reads, checks and writes plans; concordia_ai.ai.plan_player makes the decisions.

A plan reaches a bot as a spec: `plan:minerva` (a shipped plan), `plan:path/to/file.toml`, or
inline rules `plan:buy=[Mason,Farmer],build=max`; a shipped plan or a file may be followed by
overrides: `plan:minerva,build=cheap`. A `.toml` file with `type = "plan"` works as any bot file.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from ..engine import vocabulary
from ..engine.content import BOARD_NAMES, DATA_DIR, GODS
from ..engine.errors import ConcordiaError
from ..io import safe_read

PLAN_DIR = DATA_DIR / "plans"
BUILD_RULES = ("greedy", "max", "cheap", "best")
COLONIST_RULES = ("greedy", "any", "land", "sea", "none")
ANY_CARD = "*"
NEEDS = "needs"      # Mercator: the goods the plan lacks for its next house, wanted card and colonist
SURPLUS = "surplus"  # Mercator: goods beyond those needs, sold when the storehouse has no room for them


class PlanError(ConcordiaError):
    """A plan with an unknown rule, an unknown name in a rule, or a value of the wrong type."""


@dataclass(frozen=True)
class Rule:
    name: str
    type: type          # str, int or list (a list of names)
    default: object
    help: str


RULES: tuple[Rule, ...] = (
    Rule("name", str, "plan", "a name for the plan (kept in the bot's spec, so logs show it)"),
    Rule("description", str, "", "free text"),
    Rule("buy", list, [], "cards the Senator and Consul buy, first affordable first: card names or gods "
                          "(any card of that god), the cheapest when several match; * hands the rest of the "
                          "purchase to the greedy evaluation; [] = greedy"),
    Rule("play", list, [], "card priority: play the first listed card that is useful now; [] = the "
                           "card whose whole turn, played by this plan, evaluates best"),
    Rule("tribune_when_hand_below", int, 0, "play the Tribune when fewer cards than this are in hand "
                                            "(the Tribune counted); 0 = no rule"),
    Rule("build", str, "greedy", "when the Architect builds: greedy, max (every house affordable, cheapest "
                                 "first), cheap (only houses of at most build_max_coins coins), best (the "
                                 "most wanted cities first, as many as affordable)"),
    Rule("build_max_coins", int, 4, "the coin limit of build = \"cheap\""),
    Rule("colonists_toward", list, [], "goods or provinces the colonists head for, most wanted first; "
                                       "[] = the nearest cities, a new province preferred"),
    Rule("new_colonists", str, "greedy", "adding colonists (Tribune, Colonist card): greedy, any, land or "
                                         "sea (that kind first, whenever affordable), none (never; the "
                                         "Colonist card takes the cash)"),
    Rule("produce", list, [], "Prefect: goods or provinces to produce, first listed first; [] = greedy"),
    Rule("cash_at_least", int, 0, "Prefect: take the cash bonus when it pays at least this; 0 = no rule"),
    Rule("mercator_sell", list, [SURPLUS], "Mercator: goods to sell, 'wine' (all), '2 wine' or surplus (what "
                                           "the plan does not need, when the storehouse has no room for what "
                                           "it lacks); [] = sell nothing"),
    Rule("mercator_buy", list, [NEEDS], "Mercator: goods to buy after selling, 'food' (all affordable), "
                                        "'2 food' or needs (what the next house, wanted card and colonist "
                                        "lack); [] = buy nothing"),
    Rule("keep", list, [], "goods kept first when the storehouse overflows; [] = greedy"),
)
RULE_BY_NAME = {r.name: r for r in RULES}


@dataclass(frozen=True)
class Plan:
    """A checked plan; names are canonical (as the game spells them), lists are tuples."""
    name: str = "plan"
    description: str = ""
    buy: tuple[str, ...] = ()
    play: tuple[str, ...] = ()
    tribune_when_hand_below: int = 0
    build: str = "greedy"
    build_max_coins: int = 4
    colonists_toward: tuple[str, ...] = ()
    new_colonists: str = "greedy"
    produce: tuple[str, ...] = ()
    cash_at_least: int = 0
    mercator_sell: tuple[tuple[str, int], ...] = ((SURPLUS, 0),)    # (good, units; 0 = all)
    mercator_buy: tuple[tuple[str, int], ...] = ((NEEDS, 0),)
    keep: tuple[str, ...] = ()

    def options(self) -> dict:
        """The rules that differ from the defaults, as plain values (lists of strings): a bot's options."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value == f.default or f.name == "description":   # the description changes no decision
                continue
            if f.name.startswith("mercator_"):
                value = [g if n == 0 else f"{n} {g}" for g, n in value]
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


# ---------------------------------------------------------------- vocabulary

@lru_cache(maxsize=None)
def _vocabulary() -> dict:
    R = vocabulary.rules()
    kind_names = sorted({k.name for k in R.kinds} | {k.label for k in R.kinds})
    market = sorted({m.name for m in R.market} | {R.kinds[m.kind].label for m in R.market})
    provinces = sorted({p for b in BOARD_NAMES for p in vocabulary.board(b).provinces})
    return dict(goods=list(R.goods), kinds=kind_names, market=market, gods=list(GODS), provinces=provinces)


def _canonical(value: str, options: list[str]) -> str | None:
    key = value.strip().lower()
    for o in options:
        if o.lower() == key:
            return o
    return None


def _unknown(rule: str, what: str, value, valid: list[str]) -> PlanError:
    close = difflib.get_close_matches(str(value), valid, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return PlanError(f"plan rule {rule}: unknown {what} {value!r}{hint}; valid: {', '.join(valid)}")


def _names(rule: str, values: list, vocab: list[str], what: str, extra: tuple[str, ...] = ()) -> tuple:
    out = []
    for v in values:
        if not isinstance(v, str):
            raise PlanError(f"plan rule {rule}: {v!r} is not a name; give a list of {what}s")
        name = v.strip() if v.strip() in extra else _canonical(v, vocab)
        if name is None and rule == "buy" and _canonical(v, _vocabulary()["kinds"]):
            raise PlanError(f"plan rule buy: {v!r} is a starting card, never on display; valid: "
                            f"{', '.join(vocab + list(extra))}")
        if name is None:
            raise _unknown(rule, what, v, vocab + list(extra))
        out.append(name)
    return tuple(out)


def _trades(rule: str, values: list) -> tuple:
    goods = _vocabulary()["goods"]
    out = []
    for v in values:
        special = NEEDS if rule == "mercator_buy" else SURPLUS
        if isinstance(v, str) and v.strip().lower() == special:
            out.append((special, 0))
            continue
        words = str(v).split() if isinstance(v, str) else []
        units = 0
        if len(words) == 2 and words[0].isdigit() and int(words[0]) > 0:
            units, words = int(words[0]), words[1:]
        good = _canonical(words[0], goods) if len(words) == 1 else None
        if good is None:
            raise PlanError(f"plan rule {rule}: {v!r} is not a good, 'N good' (e.g. '2 wine') or {special}; "
                            f"goods: {', '.join(goods)}")
        out.append((good, units))
    return tuple(out)


def _choice(rule: str, value: str, valid: tuple[str, ...]) -> str:
    key = value.strip().lower()
    if key not in valid:
        raise PlanError(f"plan rule {rule}: {value!r} is not one of {', '.join(valid)}")
    return key


def plan_from_table(table: dict) -> Plan:
    """A checked Plan from a TOML table of rules (no `type` key); PlanError names the first bad rule."""
    if not isinstance(table, dict):
        raise PlanError(f"a plan is a table of rules; valid rules: {', '.join(RULE_BY_NAME)}")
    v = _vocabulary()
    values = {}
    for key, value in table.items():
        rule = RULE_BY_NAME.get(key)
        if rule is None:
            close = difflib.get_close_matches(str(key), list(RULE_BY_NAME), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise PlanError(f"plan: unknown rule {key!r}{hint}; valid rules: {', '.join(RULE_BY_NAME)}")
        if rule.type is list:
            if isinstance(value, str):
                value = [value]        # one name for a list of one
            if not isinstance(value, list):
                raise PlanError(f"plan rule {key}: {value!r} is not a list (e.g. {key} = [\"...\", \"...\"])")
        elif rule.type is int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise PlanError(f"plan rule {key}: {value!r} is not a whole number >= 0")
        elif not isinstance(value, str):
            raise PlanError(f"plan rule {key}: {value!r} is not a string")
        values[key] = value
    plan = {}
    for key, value in values.items():
        if key == "buy":
            plan[key] = _names(key, value, v["market"] + v["gods"], "card or god", (ANY_CARD,))
        elif key == "play":
            plan[key] = _names(key, value, v["kinds"], "card")
        elif key in ("colonists_toward", "produce"):
            plan[key] = _names(key, value, v["goods"] + v["provinces"], "good or province")
        elif key == "keep":
            plan[key] = _names(key, value, v["goods"], "good")
        elif key.startswith("mercator_"):
            plan[key] = _trades(key, value)
        elif key == "build":
            plan[key] = _choice(key, value, BUILD_RULES)
        elif key == "new_colonists":
            plan[key] = _choice(key, value, COLONIST_RULES)
        elif key == "name" and (not value.strip() or any(c in value for c in ",=[]'\"")):
            raise PlanError(f"plan rule name: {value!r}; use letters, digits, spaces, - or _")
        else:
            plan[key] = value
    return Plan(**plan)


# ---------------------------------------------------------------- shipped plans, files and spec strings

def shipped_plans() -> list[str]:
    """Names of the plans that come with the package (`plan:NAME`)."""
    return sorted(p.stem for p in PLAN_DIR.glob("*.toml"))


def _read_toml(path: Path, label: str) -> dict:
    """A plan file's table, read through safe_read: a FIFO, a device or a huge, binary or deeply nested
    file is refused with one line instead of hanging, filling memory or overflowing the stack."""
    try:
        data = safe_read.read_toml(str(path))
    except safe_read.UserFileError as e:
        raise PlanError(_plan_file_message(label, str(path), str(e))) from None
    kind = data.pop("type", "plan")
    if kind != "plan":
        raise PlanError(f"plan file {label}: type = {kind!r}; a plan file has type = \"plan\" (or no type)")
    return data


def _plan_file_message(label: str, path: str, message: str) -> str:
    """safe_read's message about `path`, naming the plan file once."""
    if message.startswith(f"cannot read {path}: "):
        return f"plan file {label}: {message[len(f'cannot read {path}: '):]}"
    if message.startswith(f"{path} "):
        return f"plan file {label} {message[len(path) + 1:]}"
    return f"plan file {label}: {message}"


def _split_items(text: str) -> list[str]:
    """Split at the commas outside brackets: 'buy=[Mason,Farmer],build=max' -> two items."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [x.strip() for x in items if x.strip()]


def _value(text: str):
    """A spec-string value: [a, b] (quotes optional), a whole number, or a word."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        return [x.strip().strip("'\"") for x in text[1:-1].split(",") if x.strip()]
    text = text.strip("'\"")
    return int(text) if text.isdigit() else text


def parse_plan_spec(text: str) -> dict:
    """A plan bot's options from the part after 'plan:': a shipped plan's name or a .toml file,
    then KEY=VALUE overrides, or inline KEY=VALUE rules only. Raises PlanError."""
    items = _split_items(text or "")
    table: dict = {}
    if items and "=" not in items[0]:
        source = items.pop(0)
        if source.lower().endswith(".toml"):
            table = _read_toml(Path(source), source)
        elif source.lower() in shipped_plans():
            table = _read_toml(PLAN_DIR / f"{source.lower()}.toml", f"plan:{source.lower()}")
        else:
            raise PlanError(f"plan:{source}: no shipped plan or .toml file of that name; shipped plans: "
                            f"{', '.join(shipped_plans())} (or plan:FILE.toml, or plan:KEY=VALUE,...)")
    for item in items:
        key, eq, value = item.partition("=")
        if not eq:
            raise PlanError(f"plan spec: {item!r} is not KEY=VALUE (e.g. build=max or buy=[Mason,Farmer])")
        table[key.strip()] = _value(value)
    return plan_from_table(table).options()


def plan_file_options(table: dict) -> dict:
    """A plan bot's options from a bot file's table (its `type` removed). Raises PlanError."""
    return plan_from_table(table).options()
