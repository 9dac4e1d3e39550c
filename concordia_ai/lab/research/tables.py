"""The research tables from game records: cards and gods, seats, the VP of one more card, interventions.

Units and definitions (docs/research.md has the full text):
- a *seat-game* is one seat of one game. For a card kind K, a seat-game *bought* K if the seat bought
  at least one K; it *skipped* K if K was affordable to it in at least one of its turns (afford.py)
  and it bought none. Seat-games where K was never affordable are in neither group.
- win = the seat finished first (ties broken by the rules); VP = its final score.
- the seat baseline: each seat position's win rate and mean VP over all seat-games of the run. A
  group's *normalised win rate* is its wins divided by the wins its seats would have at their
  baseline rates (1 = as often as an average player in the same seats); *VP vs seat* is its mean VP
  minus its seats' baseline mean VP.
- game phase: a turn's place in its game, t / (the game's turns): early < 1/3 <= mid < 2/3 <= late.
Every figure is a stats.Sample figure: value, 95 % block-bootstrap interval, n.
"""
from __future__ import annotations

from collections import defaultdict

from ...engine import vocabulary
from . import godvalue
from .games import kind_label, market_kinds
from .stats import MIN_N, REPS, Accumulator, ratio

PHASES = ("early", "mid", "late")


def phase_of(t: int, game_turns: int) -> str:
    f = t / max(1, game_turns)
    return PHASES[0] if f < 1 / 3 else PHASES[1] if f < 2 / 3 else PHASES[2]


def groups(players: int) -> list[tuple[str, set[int]]]:
    """(label, card kinds) of every market card kind in a P-player game (decks I to P), then of every
    god (its market cards in those decks)."""
    kinds = vocabulary.rules().kinds
    in_play = market_kinds(players)
    out = [(kind_label(k), {k}) for k in in_play]
    for god in vocabulary.GODS:
        members = {k for k in in_play if kinds[k].god == god}
        if members:
            out.append((f"god:{god}", members))
    return out


def _seat_baseline(acc: Accumulator, rec: dict) -> None:
    b = rec["block"]
    acc.add(b, "games")
    for s in range(rec["players"]):
        acc.add(b, f"seat{s}.n")
        acc.add(b, f"seat{s}.win", rec["ranks"][s] == 1)
        acc.add(b, f"seat{s}.vp", rec["scores"][s]["total"])
        acc.add(b, f"seat{s}.rank", rec["ranks"][s])
        acc.add(b, f"seat{s}.margin", rec["scores"][s]["total"] -
                sum(x["total"] for x in rec["scores"]) / rec["players"])


def _normalised(s, prefix: str, players: int):
    """(wins / expected wins at the seats' baseline, mean VP minus the seats' baseline mean VP)."""
    exp_wins = sum(s[f"{prefix}.seat{q}"] * ratio(s[f"seat{q}.win"], s[f"seat{q}.n"]) for q in range(players))
    exp_vp = sum(s[f"{prefix}.seat{q}"] * ratio(s[f"seat{q}.vp"], s[f"seat{q}.n"]) for q in range(players))
    return ratio(s[f"{prefix}.win"], exp_wins), ratio(s[f"{prefix}.vp"] - exp_vp, s[f"{prefix}.n"])


# ---------------------------------------------------------------- cards and gods

def card_table(records: list[dict], reps: int = REPS, seed: int = 0, min_n: int = MIN_N) -> list[dict]:
    """Per market card kind, then per god: buying, and the value of buying (observational)."""
    market = vocabulary.rules().market
    players = records[0]["players"] if records else 0
    grp = groups(players)
    acc = Accumulator()
    for rec in records:
        b = rec["block"]
        _seat_baseline(acc, rec)
        copies = defaultdict(int)                    # (seat, group) -> copies bought
        first = {}                                   # (seat, group) -> phase of the first purchase
        could = set()                                # (seat, group) affordable at least once
        for turn in rec["purchases"]:
            seat, ph = turn["seat"], phase_of(turn["t"], rec["game_turns"])
            afford = {market[c].kind for c in turn["afford"]}
            bought = [market[c].kind for c, _, _ in turn["buys"]]
            for label, members in grp:
                if afford & members:
                    could.add((seat, label))
                    acc.add(b, f"{label}.turns_afford")
                    if set(bought) & members:
                        acc.add(b, f"{label}.turns_bought")
            for c, slot, _ in turn["buys"]:
                for label, members in grp:
                    if market[c].kind in members:
                        copies[seat, label] += 1
                        first.setdefault((seat, label), ph)
                        acc.add(b, f"{label}.copies")
                        acc.add(b, f"{label}.slot{slot}")
                        acc.add(b, f"{label}.deck{market[c].deck}")
                        acc.add(b, f"{label}.phase.{ph}")
        for seat in range(rec["players"]):
            win, vp = rec["ranks"][seat] == 1, rec["scores"][seat]["total"]
            for label, _ in grp:
                if copies[seat, label]:
                    prefixes = ["B", f"B.{first[seat, label]}"]
                elif (seat, label) in could:
                    prefixes = ["S"]
                else:
                    continue
                for p in prefixes:
                    acc.add(b, f"{label}.{p}.n")
                    acc.add(b, f"{label}.{p}.win", win)
                    acc.add(b, f"{label}.{p}.vp", vp)
                    acc.add(b, f"{label}.{p}.seat{seat}")
    s = acc.sample(reps, seed)
    games = s.n("games")
    fig = lambda values, n: s.figure(values, n, min_n)  # noqa: E731
    rows = []
    for label, members in grp:
        k = lambda name: s[f"{label}.{name}"]  # noqa: E731,B023
        nb, ns = s.n(f"{label}.B.n"), s.n(f"{label}.S.n")
        copies = s.n(f"{label}.copies")
        row = dict(card=label.removeprefix("god:"), group="god" if label.startswith("god:") else "card",
                   decks=sorted({vocabulary.NUMERALS[m.deck] for m in market
                                 if m.kind in members and m.deck < players}),
                   copies=copies, copies_per_game=fig(ratio(k("copies"), s["games"]), games),
                   buy_rate=fig(ratio(k("B.n"), k("B.n") + k("S.n")), nb + ns),
                   turn_rate=fig(ratio(k("turns_bought"), k("turns_afford")), s.n(f"{label}.turns_afford")))
        for name, prefix, n in (("bought", "B", nb), ("skipped", "S", ns)):
            norm, vs_seat = _normalised(s, f"{label}.{prefix}", players)
            row[name] = dict(n=n, win=fig(ratio(k(f"{prefix}.win"), k(f"{prefix}.n")), n),
                             vp=fig(ratio(k(f"{prefix}.vp"), k(f"{prefix}.n")), n),
                             norm_win=fig(norm, n), vp_vs_seat=fig(vs_seat, n))
        nb_norm, _ = _normalised(s, f"{label}.B", players)
        ns_norm, _ = _normalised(s, f"{label}.S", players)
        n_gap = min(nb, ns)
        row["gap"] = dict(n=n_gap,
                          win=fig(ratio(k("B.win"), k("B.n")) - ratio(k("S.win"), k("S.n")), n_gap),
                          vp=fig(ratio(k("B.vp"), k("B.n")) - ratio(k("S.vp"), k("S.n")), n_gap),
                          norm_win=fig(nb_norm - ns_norm, n_gap))
        row["by_slot"] = [fig(ratio(k(f"slot{i}"), k("copies")), copies) for i in range(7)]
        row["by_deck"] = {vocabulary.NUMERALS[d]: fig(ratio(k(f"deck{d}"), k("copies")), copies)
                          for d in sorted({m.deck for m in market if m.kind in members and m.deck < players})}
        row["by_phase"] = {ph: fig(ratio(k(f"phase.{ph}"), k("copies")), copies) for ph in PHASES}
        timing = {}
        for ph in PHASES:
            n = s.n(f"{label}.B.{ph}.n")
            norm, _ = _normalised(s, f"{label}.B.{ph}", players)
            timing[ph] = dict(n=n, win=fig(ratio(k(f"B.{ph}.win"), k(f"B.{ph}.n")), n), norm_win=fig(norm, n))
        row["by_first_purchase"] = timing
        rows.append(row)
    return rows


# ---------------------------------------------------------------- seats

def seat_table(records: list[dict], reps: int = REPS, seed: int = 0, min_n: int = MIN_N) -> dict:
    """Win rate, mean VP, mean rank and VP against the game mean by seat, with the starting coins."""
    acc = Accumulator()
    for rec in records:
        _seat_baseline(acc, rec)
    s = acc.sample(reps, seed)
    players = records[0]["players"] if records else 0
    coins = vocabulary.rules().raw.coins_by_seat
    rows = []
    for q in range(players):
        n = s.n(f"seat{q}.n")
        rows.append(dict(seat=q + 1, start_coins=coins[q], praefectus_magnus=q == players - 1, n=n,
                         win=s.figure(ratio(s[f"seat{q}.win"], s[f"seat{q}.n"]), n, min_n),
                         vp=s.figure(ratio(s[f"seat{q}.vp"], s[f"seat{q}.n"]), n, min_n),
                         rank=s.figure(ratio(s[f"seat{q}.rank"], s[f"seat{q}.n"]), n, min_n),
                         vp_vs_mean=s.figure(ratio(s[f"seat{q}.margin"], s[f"seat{q}.n"]), n, min_n)))
    import numpy as np
    rates = np.vstack([ratio(s[f"seat{q}.win"], s[f"seat{q}.n"]) for q in range(players)]) if players else None
    games = s.n("games")
    spread = s.figure(rates.max(axis=0) - rates.min(axis=0), games, min_n) if players else None
    first_vs_last = s.figure(rates[0] - rates[-1], games, min_n) if players else None
    return dict(seats=rows, fair_share=round(1 / players, 4) if players else None, games=games,
                spread=spread, first_minus_last=first_vs_last)


# ---------------------------------------------------------------- the VP of one more card of a god

def marginal_table(records: list[dict], reps: int = REPS, seed: int = 0, min_n: int = MIN_N) -> list[dict]:
    """Mean marginal VP of one more card per god column, at a seat's k-th turn and at the end."""
    cols = [label for label, _ in godvalue.columns()]
    acc = Accumulator()
    points = []
    for rec in records:
        acc.block(rec["block"])
        for point, rows in rec.get("marginal", {}).items():
            if point not in points:
                points.append(point)
            for vec in rows:
                if vec is None:
                    continue
                acc.add(rec["block"], f"{point}.n")
                for c, v in zip(cols, vec):
                    acc.add(rec["block"], f"{point}.{c}", v)
    points.sort(key=lambda p: (p == "end", int(p) if p.isdigit() else 0))
    s = acc.sample(reps, seed)
    out = []
    for point in points:
        n = s.n(f"{point}.n")
        out.append(dict(point=point, n=n, vp={c: s.figure(ratio(s[f"{point}.{c}"], s[f"{point}.n"]), n, min_n)
                                              for c in cols}))
    return out


# ---------------------------------------------------------------- interventions

def intervention_table(records: list[dict], reps: int = REPS, seed: int = 0, min_n: int = MIN_N) -> list[dict]:
    """Per card: the paired difference forced - forbidden in the treated seat's win rate and final VP.

    A pair is the two arms of one (card, block, rotation); it counts once both arms are logged and the
    card was affordable to the treated seat at some turn (else the arms are the same game)."""
    arms: dict[tuple, dict] = {}
    for rec in records:
        arms.setdefault((rec["card"], rec["block"], rec["rotation"]), {})[rec["arm"]] = rec
    acc = Accumulator()
    cards = []
    for (card, block, _), pair in arms.items():
        if card not in cards:
            cards.append(card)
        acc.block(block)
        if set(pair) != {"force", "forbid"}:
            continue
        f, x = pair["force"], pair["forbid"]
        seat = f["treated"]
        acc.add(block, f"{card}.pairs")
        if f["trigger"] is None:
            continue
        acc.add(block, f"{card}.n")
        acc.add(block, f"{card}.round", f["trigger"]["round"])
        acc.add(block, f"{card}.coins", f["forced"]["coins"])
        for arm, rec in (("force", f), ("forbid", x)):
            acc.add(block, f"{card}.{arm}.win", rec["ranks"][seat] == 1)
            acc.add(block, f"{card}.{arm}.vp", rec["scores"][seat]["total"])
            acc.add(block, f"{card}.{arm}.rank", rec["ranks"][seat])
    s = acc.sample(reps, seed)
    rows = []
    for card in cards:
        n = s.n(f"{card}.n")
        k = lambda name: s[f"{card}.{name}"]  # noqa: E731,B023
        fig = lambda values: s.figure(values, n, min_n)  # noqa: E731
        rows.append(dict(
            card=card, pairs=s.n(f"{card}.pairs"), n=n,
            treated_share=s.figure(ratio(k("n"), k("pairs")), s.n(f"{card}.pairs"), min_n),
            round=fig(ratio(k("round"), k("n"))), price=fig(ratio(k("coins"), k("n"))),
            win_force=fig(ratio(k("force.win"), k("n"))), win_forbid=fig(ratio(k("forbid.win"), k("n"))),
            win_diff=fig(ratio(k("force.win") - k("forbid.win"), k("n"))),
            vp_force=fig(ratio(k("force.vp"), k("n"))), vp_forbid=fig(ratio(k("forbid.vp"), k("n"))),
            vp_diff=fig(ratio(k("force.vp") - k("forbid.vp"), k("n"))),
            rank_diff=fig(ratio(k("force.rank") - k("forbid.rank"), k("n")))))
    return rows
