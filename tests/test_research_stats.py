"""Research statistics: block-bootstrap intervals on synthetic data with known answers, and the tables."""
import numpy as np
import pytest

from concordia_ai.engine.game import Game
from concordia_ai.lab.research import godvalue, tables
from concordia_ai.lab.research.stats import Accumulator, covers, ratio

WEAVER = 14          # market card id of Weaver/II (deck II: in every 2-player game)


# ---------------------------------------------------------------- the bootstrap itself

def _two_groups(rng, blocks, diff, spread=0.1):
    """Units in blocks with a shared block effect; group A wins diff more often than group B."""
    acc = Accumulator()
    for b in range(blocks):
        u = rng.normal(0, spread)
        for _ in range(4):
            group = "A" if rng.random() < 0.5 else "B"
            p = 0.5 + u + (diff / 2 if group == "A" else -diff / 2)
            acc.add(b, f"{group}.n")
            acc.add(b, f"{group}.win", float(rng.random() < p))
    return acc


def _diff(s):
    return ratio(s["A.win"], s["A.n"]) - ratio(s["B.win"], s["B.n"])


def test_interval_coverage_is_close_to_95_percent():
    rng = np.random.default_rng(12)
    hits = 0
    draws = 200
    for i in range(draws):
        s = _two_groups(rng, blocks=80, diff=0.2).sample(reps=400, seed=i)
        hits += covers(s.figure(_diff(s), n=s.n("A.n") + s.n("B.n"), min_n=1), 0.2)
    assert 0.88 <= hits / draws <= 0.99, hits


def test_too_few_below_min_n_and_exact_values():
    acc = Accumulator()
    for b, (n, w) in enumerate([(3, 1), (2, 2), (5, 0)]):
        acc.add(b, "n", n)
        acc.add(b, "win", w)
    s = acc.sample(reps=200, seed=0)
    assert s.figure(ratio(s["win"], s["n"]), n=s.n("n"), min_n=11) == dict(value=None, lo=None, hi=None, n=10,
                                                                           too_few=True)
    fig = s.figure(ratio(s["win"], s["n"]), n=s.n("n"), min_n=10)
    assert fig["value"] == 0.3 and fig["n"] == 10 and 0.0 <= fig["lo"] <= 0.3 <= fig["hi"] <= 1.0
    # resamples draw whole blocks: every resampled rate is a ratio of block sums
    assert s.reps == 200 and s.blocks == 3


# ---------------------------------------------------------------- a planted card effect

def _synthetic_games(rng, blocks, p_buyer_wins, vp_gain):
    """2-player games: in each, one seat buys a Weaver and the other had one affordable and did not."""
    recs = []
    for b in range(blocks):
        for r in range(2):
            buyer = int(rng.integers(2))
            winner = buyer if rng.random() < p_buyer_wins else 1 - buyer
            vp = [80 + rng.normal(0, 8) + (vp_gain if s == buyer else 0) for s in range(2)]
            ranks = [1 if s == winner else 2 for s in range(2)]
            recs.append(dict(block=b, rotation=r, players=2, ranks=ranks, game_turns=60,
                             scores=[{"total": round(v)} for v in vp],
                             purchases=[dict(t=10, seat=buyer, round=5, afford=[WEAVER], buys=[[WEAVER, 2, "senator"]]),
                                        dict(t=11, seat=1 - buyer, round=5, afford=[WEAVER], buys=[])]))
    return recs


def _row(rows, name):
    return next(r for r in rows if r["card"] == name)


def test_planted_card_effect_is_recovered_within_its_interval():
    recs = _synthetic_games(np.random.default_rng(3), blocks=300, p_buyer_wins=0.7, vp_gain=10)
    weaver = _row(tables.card_table(recs, reps=400, seed=1), "Weaver")
    assert weaver["bought"]["n"] == weaver["skipped"]["n"] == 600 and weaver["copies"] == 600
    assert weaver["buy_rate"]["value"] == 0.5 and weaver["turn_rate"]["value"] == 0.5
    assert covers(weaver["gap"]["win"], 0.4) and weaver["gap"]["win"]["lo"] > 0.3
    assert covers(weaver["gap"]["vp"], 10.0) and weaver["gap"]["vp"]["lo"] > 7
    assert covers(weaver["bought"]["norm_win"], 1.4) and covers(weaver["gap"]["norm_win"], 0.8)
    assert weaver["by_slot"][2]["value"] == 1.0 and weaver["by_phase"]["early"]["value"] == 1.0
    assert weaver["by_deck"]["II"]["value"] == 1.0
    assert weaver["by_first_purchase"]["early"]["n"] == 600 and weaver["by_first_purchase"]["late"]["n"] == 0
    # the god of the Weaver sees the same seats; a card never on display is in neither group
    assert _row(tables.card_table(recs, reps=0), "Minerva")["bought"]["n"] == 600
    assert _row(tables.card_table(recs, reps=0), "Architect")["bought"]["n"] == 0


def test_no_effect_gives_an_interval_covering_zero():
    recs = _synthetic_games(np.random.default_rng(4), blocks=300, p_buyer_wins=0.5, vp_gain=0)
    gap = _row(tables.card_table(recs, reps=400, seed=1), "Weaver")["gap"]
    assert covers(gap["win"], 0.0) and covers(gap["vp"], 0.0) and covers(gap["norm_win"], 0.0)


def test_intervention_table_recovers_a_planted_paired_effect():
    rng = np.random.default_rng(5)
    recs = []
    for b in range(150):
        for r in range(2):
            for arm, p in (("force", 0.6), ("forbid", 0.4)):
                win = rng.random() < p
                ranks = [1, 2] if (win == (r == 0)) else [2, 1]
                vp = [90, 90]
                vp[r] += 6 if arm == "force" else 0
                recs.append(dict(card="Weaver", block=b, rotation=r, arm=arm, treated=r, ranks=ranks,
                                 scores=[{"total": v} for v in vp], trigger=dict(turn=9, round=5),
                                 forced=dict(coins=24) if arm == "force" else None))
    recs.append(dict(recs[0], block=999, trigger=None))              # half a pair: not counted
    row = tables.intervention_table(recs, reps=400, seed=2)[0]
    assert row["n"] == 300 and row["pairs"] == 300
    assert covers(row["win_diff"], 0.2) and row["win_diff"]["lo"] > 0.05
    assert row["vp_diff"]["value"] == 6.0 and row["price"]["value"] == 24.0 and row["round"]["value"] == 5.0


# ---------------------------------------------------------------- seats and the VP of one more card

def test_seat_table_exact_values():
    recs = [dict(block=0, players=2, ranks=[1, 2], scores=[{"total": 100}, {"total": 80}]),
            dict(block=1, players=2, ranks=[1, 2], scores=[{"total": 90}, {"total": 70}]),
            dict(block=2, players=2, ranks=[2, 1], scores=[{"total": 60}, {"total": 100}])]
    t = tables.seat_table(recs, reps=100, min_n=1)
    one, two = t["seats"]
    assert one["win"]["value"] == pytest.approx(2 / 3, abs=1e-4) and two["win"]["value"] == pytest.approx(1 / 3, abs=1e-4)
    assert one["vp"]["value"] == pytest.approx(250 / 3, abs=1e-3) and one["vp_vs_mean"]["value"] == pytest.approx(0.0, abs=1e-9)
    assert (one["start_coins"], two["start_coins"], two["praefectus_magnus"]) == (5, 6, True)
    assert t["fair_share"] == 0.5 and t["first_minus_last"]["value"] == pytest.approx(1 / 3, abs=1e-4)


def test_marginal_vp_of_one_more_card_per_god():
    pos = Game.new("imperium", 2, 3).to_json()
    p1 = pos["players"][0]
    p1["coins"], p1["goods"] = 20, {"brick": 0, "food": 0, "tool": 0, "wine": 0, "cloth": 3}
    brick_city = next(c for c, g in pos["cities"].items() if g == "brick")
    cloth_city = next(c for c, g in pos["cities"].items() if g == "cloth")
    p1["houses"] = [brick_city, cloth_city]
    game = Game.from_json(pos)
    provinces = {game.board.city_province[game.board.city_index(c)] for c in (brick_city, cloth_city)}
    vp = godvalue.marginal_vp(game.state, [0, 1])
    labels = [c for c, _ in godvalue.columns()]
    assert labels == ["Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva/Mason", "Minerva/Farmer",
                      "Minerva/Smith", "Minerva/Vintner", "Minerva/Weaver"]
    # Vesta (20 + 3 cloth * 7) // 10; Jupiter: the cloth-city house; Saturnus: provinces with a house;
    # Mercurius 2 per good produced; Mars 2 per colonist on the board; Mason 3 per brick city, Weaver 5 per cloth
    assert vp[0] == [4, 1, len(provinces), 4, 4, 3, 0, 0, 0, 5]
    assert vp[1] == [3, 0, 0, 0, 4, 0, 0, 0, 0, 0]
