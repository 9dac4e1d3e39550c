"""No transpositions within a turn: each outcome of a turn is reached by exactly one sequence of sub-decisions,
and the canonical orders lose no outcome.

For a state, the whole tree of the current turn is enumerated (until the turn ends, a reveal is asked, or a
bound is hit). (a) In the canonical mode no two sequences reach the same end state. (b) The set of end states
equals the one of the reference mode (`core.set_all_orders(True)`: every order of moves, builds, purchases,
trades and placements, the Architect with chains and swaps judged at the end, as the engine offered before).

End states are compared on the state's fields without the scratch of the card in play, with each player's
colonists sorted per type (colonists of one type are interchangeable), so two index assignments of the same
places also count as the same state. (a) compares sequences that play the same card (and copy the same one
with a Diplomat): different cards can meet by coincidence (a copied Mason making 1 brick, a copied Mercator/3
buying 1 brick); that is two plans, not two orders of one, and no canonical order can merge it."""
import random


from concordia_ai import core
from concordia_ai.engine.content import BOARD_NAMES
from concordia_ai.engine.game import Game

from positions import base, gds, load, set_player, set_turn

SCRATCH = {"steps", "moved", "arch_from", "pick_last", "merc_sold_last", "merc_bought_last", "merc_kinds",
           "merc_sold_mask", "buys", "col_last", "col_cash_ok", "keep_player", "keep_last", "act_kind"}
LIMIT = 6000          # sequences per tree; a larger tree is skipped (and counted)


def end_key(state) -> str:
    d = {k: v for k, v in state.export().items() if k not in SCRATCH}
    for p in d["players"]:
        col = p["colonists"]
        p["colonists"] = sorted(col[:3]) + sorted(col[3:])
    return repr(d)


def turn_tree(state, limit=LIMIT):
    """{(card choice, end key): number of sequences reaching it} over the current turn, or None beyond
    `limit`. The card choice is the card played and the card a Diplomat copies (empty once chosen)."""
    turn, ends, stack = state.turns, {}, [(state, ())]
    count = 0
    while stack:
        s, card = stack.pop()
        if s.turns != turn or s.is_over or s.decider == core.CHANCE:
            key = (card, end_key(s))
            ends[key] = ends.get(key, 0) + 1
            count += 1
            if count > limit:
                return None
            continue
        choosing = s.phase_name in ("play", "diplomat")
        for a in s.legal_actions():
            t = s.copy()
            t.apply(a)
            stack.append((t, card + (a,) if choosing else card))
    return ends


def outcomes(tree):
    return {key for _, key in tree}


def both_modes(state, limit=LIMIT):
    canonical = turn_tree(state.copy(), limit)
    core.set_all_orders(True)
    try:
        reference = turn_tree(state.copy(), 4 * limit)
    finally:
        core.set_all_orders(False)
    return canonical, reference


def check(state, where, limit=LIMIT, same_set=True):
    """Asserts (a), and (b) with `same_set`; returns False when a tree was too large to enumerate.

    (b) holds from the start of a turn or of a card: from halfway through, the reference may still take
    steps that the canonical order puts before the ones already taken."""
    canonical, reference = both_modes(state, limit)
    if canonical is None or reference is None:
        return False
    twice = [k for k, n in canonical.items() if n > 1]
    assert not twice, f"{where}: {len(twice)} end states reached by several sequences"
    lost, new = outcomes(reference) - outcomes(canonical), outcomes(canonical) - outcomes(reference)
    assert not same_set or not (lost or new), f"{where}: {len(lost)} outcomes lost, {len(new)} new"
    return True


# ------------------------------------------------------------------ constructed positions, exact counts

def architect(land=(), sea=(), goods_=None, coins_=0, others=None):
    pos = base(3)
    set_player(pos, 0, coins=coins_, goods=goods_ if goods_ is not None else gds(), land=list(land), sea=list(sea),
               houses=[])
    for seat, kw in (others or {}).items():
        set_player(pos, seat, **kw)
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    return g


def test_two_land_colonists_in_roma_each_outcome_once():
    """Two colonists in Roma, 2 steps. By hand: no move (1), one colonist 1 step onto one of the 3 routes at
    Roma (3), one colonist 2 steps onto one of the 5 routes beyond (Aquileia-Novaria, -Sirmium, -Vindobona,
    Colonia Agrippina-Novaria, Massilia-Novaria) (5), both 1 step onto two of the 3 routes (3): 12 outcomes.
    The reference reaches the last 3 in either order: 15 sequences."""
    g = architect(land=["Roma", "Roma"])
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)
    assert len(canonical) == sum(canonical.values()) == 12
    assert sum(reference.values()) == 15


def test_swap_and_chain_are_the_direct_outcome():
    """A swap of two own colonists leaves the places unchanged: in the canonical tree it is `done` only."""
    g = architect(land=["Aquileia-Roma", "Novaria-Roma"])      # 2 steps
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)
    assert max(canonical.values()) == 1 and len(canonical) == 36
    assert sum(reference.values()) == 69                        # swaps, chains and both orders of two moves


def test_builds_in_either_order_are_one_sequence():
    """One colonist between Aquileia and Novaria, both houses affordable together: without moving, the
    builds give {}, {Aquileia}, {Novaria}, {both} (4 end states, 4 sequences; the reference also builds
    Novaria before Aquileia)."""
    g = architect(land=["Aquileia-Novaria"], goods_=gds(brick=2, food=1, tool=1, wine=1, cloth=1), coins_=50)
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)
    assert max(canonical.values()) == 1
    g.apply("build Aquileia")
    canonical, reference = both_modes(g.state)
    assert sorted(canonical.values()) == [1, 1] and sorted(reference.values()) == [1, 1]
    # the reference reaches the two-house outcome through both build orders
    g = architect(land=["Aquileia-Novaria"], goods_=gds(brick=2, food=1, tool=1, wine=1, cloth=1), coins_=50)
    build_a, build_n = g.parse("build Aquileia"), g.parse("build Novaria")
    for first, second in ((build_a, build_n), (build_n, build_a)):
        core.set_all_orders(True)
        try:
            t = g.state.copy()
            t.apply(first)
            t.apply(second)
        finally:
            core.set_all_orders(False)
        assert sorted(Game(t, g.names).to_json()["players"][0]["houses"]) == ["Aquileia", "Novaria"]
    t = g.state.copy()
    t.apply(build_n)
    assert not t.is_legal(build_a)                          # canonical: Aquileia (lower index) first


def test_diplomat_copying_nothing_is_its_own_done():
    """A Senator with nothing affordable to copy changes nothing (the same as the Diplomat's `done`), so it is
    not offered; a Mercator/3 (3 coins) is."""
    pos = base(3)
    set_player(pos, 0, coins=0, goods=gds(), land=["Roma"], sea=["Roma"], houses=[], extra={"Diplomat/Mars": 1})
    set_player(pos, 1, played=["Senator"])
    set_player(pos, 2, played=["Mercator/3"])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Diplomat")
    assert sorted(g.text(m) for m in g.legal_moves()) == ["copy Mercator/3", "done"]
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)


def test_senator_two_cards_in_either_order_are_one_sequence():
    pos = base(3)
    set_player(pos, 0, coins=0, goods=gds(brick=2, food=2, tool=2, wine=1, cloth=1), land=["Roma"], sea=["Roma"],
               houses=[])
    set_turn(pos, 0)
    g = load(pos)
    g.state.set_chance(False, True)      # the refill is asked, so the turn tree stops there
    g.apply("play Senator")
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)
    assert max(canonical.values()) == 1
    assert sum(reference.values()) > len(reference)        # two cards bought in either order


def test_mercator_trades_in_any_order_reach_the_same_outcomes():
    pos = base(3)
    set_player(pos, 0, coins=4, goods=gds(brick=1, wine=2), land=[], sea=[], houses=[])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Mercator/3")
    canonical, reference = both_modes(g.state)
    assert outcomes(canonical) == outcomes(reference)
    assert max(canonical.values()) == 1 and len(canonical) == 43
    assert sum(reference.values()) == 60        # buying first, or wine before brick, is a transposition


# ------------------------------------------------------------------ states from random games, every board

def _sampled_states(per_case=3, seed=11):
    """(label, state, at the start of a turn or card?) from random games on every board, 2-5 players."""
    rng = random.Random(seed)
    out = []
    for board in BOARD_NAMES:
        for n in range(2, 6):
            g = Game.new(board, n, seed=rng.randrange(1 << 30))
            g.state.set_chance(False, True)
            kept, last = 0, None
            for step in range(600):
                if g.is_over or kept >= per_case:
                    break
                if g.decider != core.CHANCE and step > 40 and rng.random() < 0.08 and g.phase in (
                        "play", "architect-move", "mercator", "senator", "colonist"):
                    fresh = g.phase == "play" or last in ("play", "copy")
                    out.append((f"{board} {n}p step {step} {g.phase}", g.state.copy(), fresh))
                    kept += 1
                a = rng.choice(g.legal_moves())
                last = core.ACTION_TYPES[core.decode(a)[0]]
                g.state.apply(a)
    return out


def test_no_transposition_and_no_lost_outcome_on_random_states():
    states = _sampled_states()
    checked = sum(check(s, where, same_set=fresh) for where, s, fresh in states)
    assert len(states) >= 40
    assert sum(fresh for _, _, fresh in states) >= 20
    assert checked >= 0.7 * len(states), f"only {checked} of {len(states)} trees small enough"
