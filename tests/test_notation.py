"""Move notation (concordia_ai.engine.notation, docs/notation.md) on many random states.

A module fixture plays random games on imperium and italia with 2-5 players (some with the external
chance mode, so `reveal` moves occur) and keeps a few hundred states, with a quota per phase so the rare
phases (keep, tribune, chance, colonist, ...) are represented. Every legal move of every kept state is
checked: its text is unique, it parses back to itself, in any letter case, with the route named from
either end and with words shortened to prefixes.
"""

import random
import re

import pytest

from concordia_ai import core
from concordia_ai.engine.game import CHANCE, Game, GameError
from concordia_ai.engine.notation import NotationError

BOARDS = ("imperium", "italia")
PLAYERS = (2, 3, 4, 5)
# "square" (an Aegyptus choice between two lines to one square) is too rare in random games: its own
# tests are in test_board_aegyptus.py
ALL_PHASES = set(core.PHASES.values()) - {"over", "square"}
PER_PHASE_PER_CASE = 12         # at most this many kept states of one phase per (board, players)
GAMES_PER_CASE = 3              # the 2nd and 3rd game of each case use the external chance mode


def _new_game(board, n, seed, external):
    g = Game.new(board, n, seed=seed)
    if external:
        pos = g.to_json()
        pos["stack_order"] = None
        pos["chance"] = "external"
        g = Game.from_json(pos)
    return g


def _sample_states():
    """[(label, game)] for random states: a quota per phase per (board, players); plus each final state."""
    out = []
    for board in BOARDS:
        for n in PLAYERS:
            for k in range(GAMES_PER_CASE):
                seed = 1000 * n + 17 * k + (0 if board == "imperium" else 500)
                g = _new_game(board, n, seed, external=k > 0)
                rng = random.Random(seed)
                kept = {}
                step = 0
                while not g.is_over:
                    ph = g.phase
                    if kept.get(ph, 0) < PER_PHASE_PER_CASE // GAMES_PER_CASE + (ph in ("keep", "tribune")) * 4 \
                            and rng.random() < 0.35:
                        kept[ph] = kept.get(ph, 0) + 1
                        out.append((f"{board} {n}p seed={seed} step={step}", g.clone()))
                    g.apply(rng.choice(g.legal_moves()))
                    step += 1
                out.append((f"{board} {n}p seed={seed} over", g.clone()))
    return out


@pytest.fixture(scope="module")
def states():
    return _sample_states()


def test_enough_states_and_every_phase(states):
    assert len(states) >= 300
    phases = {g.phase for _, g in states}
    assert ALL_PHASES <= phases, f"phases never sampled: {ALL_PHASES - phases}"
    assert "over" in phases


def test_texts_unique_and_parse_back(states):
    for where, g in states:
        legal = g.legal_moves()
        texts = [g.text(m) for m in legal]
        assert len(set(texts)) == len(texts), f"{where}: duplicate texts {sorted(texts)}"
        assert len({t.lower() for t in texts}) == len(texts), f"{where}: texts differ only in case"
        for m, t in zip(legal, texts):
            assert g.parse(t) == m, f"{where}: parse({t!r}) != {m}"
            assert g.parse(t.upper()) == m, f"{where}: {t.upper()!r}"
            assert g.parse(t.swapcase()) == m, f"{where}: {t.swapcase()!r}"
            assert g.parse("  " + t.replace(" ", "   ") + " ") == m, f"{where}: extra spaces in {t!r}"


def test_verbs_match_phase(states):
    """Each phase offers only its own kinds of sub-decision (the grammar of docs/notation.md)."""
    allowed = {
        "play": {"play"}, "diplomat": {"copy", "done"}, "tribune": {"colonist", "done"},
        "architect-move": {"move", "build", "done"}, "architect-build": {"build", "done"},
        "prefect": {"produce", "cash"}, "mercator": {"sell", "buy", "done"}, "senator": {"buy", "done"},
        "consul": {"buy", "done"}, "colonist": {"place", "cash", "done"}, "keep": {"keep"}, "chance": {"reveal"},
    }
    for where, g in states:
        if g.is_over:
            continue
        verbs = {g.text(m).split()[0] for m in g.legal_moves()}
        assert verbs <= allowed[g.phase], f"{where}: phase {g.phase} offers {verbs}"
        assert (g.decider == CHANCE) == (g.phase == "chance"), where


def _reversed_route(word_text):
    a, b = word_text.split("-", 1)
    return f"{b}-{a}"


MOVE_RE = re.compile(r"^move (land|sea) (.+) > (.+)$")


def test_routes_from_either_end(states):
    checked_to = checked_from = 0
    for where, g in states:
        if g.phase != "architect-move":
            continue
        for m in g.legal_moves():
            t = g.text(m)
            mm = MOVE_RE.match(t)
            if not mm:
                continue
            kind, frm, to = mm.groups()
            assert g.parse(f"move {kind} {frm} > {_reversed_route(to)}") == m, f"{where}: {t}"
            checked_to += 1
            if "-" in frm and frm not in g.board.cities:
                assert g.parse(f"move {kind} {_reversed_route(frm)} > {to}") == m, f"{where}: {t}"
                assert g.parse(f"move {kind} {_reversed_route(frm)} > {_reversed_route(to)}") == m, where
                checked_from += 1
    assert checked_to > 100 and checked_from > 10


def _words(t):
    return t.lower().replace(">", " > ").split()


def _prefix_of(typed, full):
    """Each word a prefix, but a deck numeral typed in full or not at all ("consul/i" is not Consul/II)."""
    tw, fw = _words(typed), _words(full)
    cut_numeral = lambda w, f: "/" in w and w.rsplit("/", 1)[1] not in ("", f.rsplit("/", 1)[1])  # noqa: E731
    return len(tw) == len(fw) and all(f.startswith(w) and not cut_numeral(w, f) for w, f in zip(tw, fw))


def _full_words(typed, full):
    return sum(w == f for w, f in zip(_words(typed), _words(full)))


def _aliases(text):
    """The canonical text and the accepted forms with routes named from the other end."""
    mm = MOVE_RE.match(text)
    if not mm:
        return [text]
    kind, frm, to = mm.groups()
    froms = [frm] + ([_reversed_route(frm)] if "-" in frm else [])
    return [f"move {kind} {f} > {t}" for f in froms for t in (to, _reversed_route(to))]


def test_random_prefixes(states):
    """A text with every word cut to a random prefix names the unique legal move it matches, or is
    reported ambiguous naming exactly the matching moves."""
    rng = random.Random(7)
    unique = ambiguous = 0
    for where, g in states:
        legal = g.legal_moves()
        texts = {m: g.text(m) for m in legal}
        for m in rng.sample(legal, min(len(legal), 6)):
            words = _words(texts[m])
            short = " ".join(w if w == ">" else w[:rng.randint(1, len(w))] for w in words)
            matching = [x for x in legal if any(_prefix_of(short, a) for a in _aliases(texts[x]))]
            # a word typed in full beats a longer word it is a prefix of: keep the most such words
            full = {x: max(_full_words(short, a) for a in _aliases(texts[x]) if _prefix_of(short, a))
                    for x in matching}
            matching = [x for x in matching if full[x] == max(full.values())]
            exact = [x for x in legal if any(_words(a) == _words(short) for a in _aliases(texts[x]))]
            if len(exact) == 1 or len(matching) == 1:
                want = exact[0] if len(exact) == 1 else matching[0]
                assert g.parse(short) == want, f"{where}: {short!r}"
                unique += 1
            elif not matching:     # a deck numeral cut short ("architect/i" of Architect/II) names no move
                with pytest.raises(NotationError, match="is not a legal move"):
                    g.parse(short)
            else:
                with pytest.raises(NotationError) as e:
                    g.parse(short)
                msg = str(e.value)
                assert "ambiguous" in msg, f"{where}: {short!r}: {msg}"
                for x in matching:
                    assert texts[x] in msg, f"{where}: {short!r}: {texts[x]} not named in {msg}"
                ambiguous += 1
    assert unique > 500 and ambiguous > 20


def test_prefix_examples():
    g = Game.new("imperium", 3, seed=1)
    assert g.text(g.parse("pl arch")) == "play Architect"
    assert g.text(g.parse("PLAY ARCHITECT")) == "play Architect"
    assert g.text(g.parse("p a")) == "play Architect"
    assert g.text(g.parse("play mercator")) == "play Mercator/3"
    assert g.text(g.parse("play dip")) == "play Diplomat"
    g.apply("pl arch")
    assert g.phase == "architect-move"
    code = g.parse("mo l roma > novaria-roma")
    assert g.text(code) == "move land Roma > Novaria-Roma"
    assert g.parse("mo l ro > novaria-r") == code
    assert g.parse("move land roma > roma-novaria") == code
    assert g.parse("MOVE LAND ROMA>NOVARIA-ROMA") == code


def test_docstring_example_hyphenated_prefix():
    """A route name may be shortened on each side of its '-' ("nov-roma" for "Novaria-Roma")."""
    g = Game.new("imperium", 3, seed=1)
    g.apply("play architect")
    assert g.text(g.parse("mo l roma > nov-roma")) == "move land Roma > Novaria-Roma"


def test_ambiguous_prefix_names_candidates():
    g = Game.new("imperium", 3, seed=1)
    g.apply("play architect")
    with pytest.raises(NotationError) as e:
        g.parse("mo l roma > aq")
    msg = str(e.value)
    assert "ambiguous" in msg and "'mo l roma > aq'" in msg
    for t in ("move land Roma > Aquileia-Novaria", "move land Roma > Aquileia-Roma",
              "move land Roma > Aquileia-Sirmium", "move land Roma > Aquileia-Vindobona"):
        assert t in msg
    assert "Syracusae" not in msg        # only the candidates, not every legal move


def _legal_texts(g):
    return [g.text(m) for m in g.legal_moves()]


@pytest.mark.parametrize("text, reason", [
    ("xyz", "unknown move"),
    ("fly to Roma", "unknown move"),
    ("play Consul", "is not a legal move"),
    ("build Roma", "is not a legal move"),
    ("pl", "is not a legal move"),              # a single word never names a two-word move
    ("play Architect now", "is not a legal move"),
    ("", "empty move"),
    ("   ", "empty move"),
])
def test_unknown_or_illegal_lists_legal_moves(text, reason):
    g = Game.new("imperium", 3, seed=1)
    with pytest.raises(NotationError) as e:
        g.parse(text)
    msg = str(e.value)
    assert reason in msg
    assert "legal now:" in msg
    for t in _legal_texts(g):
        assert t in msg


def test_illegal_message_names_decider_and_phase():
    g = Game.new("imperium", 3, seed=1, names=["Ann", "Bob", "Cy"])
    with pytest.raises(NotationError) as e:
        g.parse("done")
    assert "Ann" in str(e.value) and "phase play" in str(e.value)


def test_game_over_parse_error():
    g = Game.new("italia", 2, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_moves()))
    with pytest.raises(NotationError, match="game is over"):
        g.parse("done")
    assert g.legal_moves() == [] and g.decider is None


def test_apply_illegal_code_raises_game_error_state_unchanged(states):
    for where, g in states[::10]:
        if g.is_over:
            continue
        before = g.to_json()
        legal = set(g.legal_moves())
        bad = next(c for c in range(1, 1 << 16) if c not in legal)
        with pytest.raises(GameError) as e:
            g.apply(bad)
        assert "legal now:" in str(e.value)
        assert g.to_json() == before, where
        with pytest.raises(GameError):
            g.apply(None)
        assert g.to_json() == before, where


def test_apply_illegal_text_raises_game_error_state_unchanged():
    """Brief/game.py docstring: 'illegal -> GameError listing the legal moves'. Text moves go through
    notation.parse_move, whose NotationError is a ValueError but not a GameError."""
    g = Game.new("imperium", 3, seed=1)
    before = g.to_json()
    with pytest.raises(GameError) as e:
        g.apply("play Consul")
    assert "play Architect" in str(e.value)
    assert g.to_json() == before


def test_apply_illegal_text_leaves_state_unchanged(states):
    """Whatever the exception class, a refused text move changes nothing."""
    for where, g in states[::10]:
        before = g.to_json()
        for text in ("play Consul", "xyz", "", "reveal Mason/V", "move land Atlantis > Roma-Novaria"):
            with pytest.raises(ValueError):
                g.apply(text)
            assert g.to_json() == before, f"{where}: {text!r}"


# --------------------------------------------------------------- canonical orders (docs/notation.md)

def _goods_of(texts, verb):
    goods = ["brick", "food", "tool", "wine", "cloth"]
    return [goods.index(t.split()[-1]) for t in texts if t.startswith(verb + " ") and t.split()[-1] in goods]


def test_canonical_orders_along_random_games():
    """Along random games: no sell after a buy and sold/bought kinds in increasing good order in a Mercator
    turn; goods kept one at a time in increasing good order; Colonist placements in increasing
    (kind, city) order; a colonist that has moved is never offered again; one 'play Diplomat'."""
    checked = {"mercator": 0, "keep": 0, "place": 0, "move": 0}
    for board in BOARDS:
        for n in PLAYERS:
            seed = 77 + n
            g = Game.new(board, n, seed=seed)
            rng = random.Random(seed)
            turn = []            # (phase, decider, code, text) of the current turn
            while not g.is_over:
                legal = g.legal_moves()
                texts = [g.text(m) for m in legal]
                if g.phase == "play":
                    turn = []
                    assert sum(t.startswith("play Diplomat") for t in texts) <= 1
                    assert all(t == "play Diplomat" for t in texts if t.startswith("play Dip"))
                done_here = [(c, t) for ph, d, c, t in turn if ph == g.phase and d == g.decider]
                if g.phase == "mercator" and done_here:
                    sold = [_goods_of([t], "sell")[0] for _, t in done_here if t.startswith("sell ")]
                    bought = [_goods_of([t], "buy")[0] for _, t in done_here if t.startswith("buy ")]
                    if bought:
                        assert not any(t.startswith("sell ") for t in texts), texts
                        assert all(x > max(bought) for x in _goods_of(texts, "buy")), texts
                    if sold:
                        assert all(x > max(sold) for x in _goods_of(texts, "sell")), texts
                        assert not set(_goods_of(texts, "buy")) & set(sold), texts
                    checked["mercator"] += 1
                if g.phase == "keep" and done_here:
                    kept = _goods_of([t for _, t in done_here], "keep")
                    assert all(x >= max(kept) for x in _goods_of(texts, "keep")), (kept, texts)
                    checked["keep"] += 1
                if g.phase == "colonist" and done_here:
                    last = max(core.decode(c)[1:] for c, t in done_here if t.startswith("place "))
                    for c, t in zip(legal, texts):
                        if t.startswith("place "):
                            assert core.decode(c)[1:] >= last, (t, done_here)
                    checked["place"] += 1
                if g.phase == "architect-move" and done_here:
                    moved = {core.decode(c)[1] for c, t in done_here if t.startswith("move ")}
                    for c in legal:
                        if g.text(c).startswith("move "):
                            assert core.decode(c)[1] not in moved
                    checked["move"] += 1
                i = rng.randrange(len(legal))
                turn.append((g.phase, g.decider, legal[i], texts[i]))
                g.apply(legal[i])
    assert checked["mercator"] > 0 and checked["move"] > 0


def test_mercator_orders():
    """Sells precede buys; each kind once; kinds in increasing good order; at most two kinds."""
    goods = ["brick", "food", "tool", "wine", "cloth"]
    pos = Game.new("imperium", 3, seed=1).to_json()
    p = pos["players"][0]
    p["goods"] = {"brick": 1, "food": 1, "tool": 2, "wine": 0, "cloth": 1}
    p["coins"] = 30
    g = Game.from_json(pos)
    g.apply("play mercator")
    texts = _legal_texts(g)
    assert "done" in texts
    assert any(t.startswith("sell ") for t in texts) and any(t.startswith("buy ") for t in texts)
    g.apply("sell 1 tool")
    texts = _legal_texts(g)
    # another sell only of a later good; brick/food/tool no longer sellable
    sells = {t.split()[-1] for t in texts if t.startswith("sell ")}
    assert sells and all(goods.index(x) > goods.index("tool") for x in sells), texts
    g.apply("buy 1 brick")
    texts = _legal_texts(g)
    assert texts == ["done"] or not any(t.startswith(("sell ", "buy ")) for t in texts), texts


def test_colonist_moves_once_and_identical_colonists_once():
    g = Game.new("imperium", 3, seed=1)
    g.apply("play architect")
    texts = _legal_texts(g)
    # two land colonists would be 'Roma' after a Tribune: here one land and one sea in Roma, each offered once
    assert len(texts) == len(set(texts))
    g.apply("move land Roma > Novaria-Roma")
    texts = _legal_texts(g)
    assert not any(t.startswith("move land Novaria-Roma") for t in texts), texts


def test_identical_colonists_offered_once():
    pos = Game.new("imperium", 3, seed=1).to_json()
    pos["players"][0]["colonists"]["land"] = ["Roma", "Roma", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play architect")
    texts = _legal_texts(g)
    assert len(texts) == len(set(texts))
    assert texts.count("move land Roma > Novaria-Roma") == 1
    g.apply("move land Roma > Novaria-Roma")
    # the other Roma land colonist can still move (once), to a later route than the first one: the
    # other way round reaches the same places
    assert "move land Roma > Roma-Syracusae" in _legal_texts(g)
    assert "move land Roma > Aquileia-Roma" not in _legal_texts(g)


def test_reveal_is_a_chance_move():
    cities = Game.new("imperium", 3, seed=1).to_json()["cities"]
    g = Game.from_table("imperium", 3, cities,
                        ["Farmer/I", "Smith/I", "Prefect/I", "Mercator/I", "Mason/I", "Diplomat/I", "Architect/I"])
    g.apply("play senator")
    g.apply("buy farmer")
    g.apply("done")
    assert g.phase == "chance" and g.decider == CHANCE and g.decider_name == "chance"
    assert _legal_texts(g) == ["reveal Colonist/I"]          # deck I holds one unseen card
    with pytest.raises(NotationError, match="legal now: reveal Colonist/I"):
        g.parse("reveal Vintner/II")
    assert g.text(g.parse("rev col")) == "reveal Colonist/I"
    g.apply("reveal colonist/i")
    assert g.phase == "play" and g.to_json()["display"][-1] == "Colonist/I"
