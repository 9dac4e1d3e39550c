"""scripts/opening_figures.py: the references of the opening check taken from a self-play match."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import opening_figures  # noqa: E402


def game(cand_seat, ranking, totals, bot="ismcts:seconds=0.03", opponent=None):
    return dict(candidate=bot, opponent=opponent or bot, board="imperium", players=2, seed=1, cand_seat=cand_seat,
                win=int(ranking[0] == cand_seat), ranking=ranking, totals=totals)


def test_self_play_gives_the_first_seat_s_rate_with_its_interval_and_its_final_scores(tmp_path):
    log = tmp_path / "s.jsonl"
    # three of four games won by seat 0, whichever seat the "candidate" sat in
    games = [game(0, [0, 1], [120, 100]), game(1, [0, 1], [110, 90]), game(0, [1, 0], [95, 101]),
             game(1, [0, 1], [130, 99])]
    log.write_text("".join(json.dumps(g) + "\n" for g in games))
    (rate, finals, source), = opening_figures.selfplay_references(str(log)).values()
    assert rate["selfplay"] == 0.75 and finals == [120, 110, 95, 130]
    lo, hi = rate["ci95"]
    assert lo == pytest.approx(0.3006, abs=1e-3) and hi == pytest.approx(0.9544, abs=1e-3)   # Wilson, 3 of 4
    assert "self-play of ismcts:seconds=0.03, 4 games" in source


def test_a_match_of_two_bots_is_not_self_play(tmp_path):
    log = tmp_path / "m.jsonl"
    log.write_text(json.dumps(game(0, [0, 1], [120, 100], opponent="heuristic")) + "\n")
    with pytest.raises(ValueError, match="is not self-play"):
        opening_figures.selfplay_references(str(log))


def test_a_log_that_is_not_a_strength_log_is_refused_with_one_line(tmp_path):
    log = tmp_path / "other.jsonl"
    log.write_text(json.dumps(dict(ranking=[0, 1], board="imperium")) + "\n")
    with pytest.raises(ValueError, match="is not a scripts/strength.py log"):
        opening_figures.selfplay_references(str(log))
