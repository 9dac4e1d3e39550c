"""scripts/ladder.py's report names the bots its tournaments held and the command that made it."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import ladder  # noqa: E402


def _row(bot, spec, rating):
    return dict(bot=bot, spec=spec, games=8, wins=2, win_rate=0.25, win_ci=[0.1, 0.5], mean_vp=90.0,
                mean_rank=2.0, think_seconds_per_game=1.0, rating=rating, rating_ci=[rating - 50, rating + 50])


def test_the_report_names_the_bots_played_and_its_own_command():
    setting = dict(title="4-player Imperium", games=8, blocks=2, players=4, planned_games=8, seed=8,
                   folder="results/x/imperium-4p", fair_share=0.25,
                   bots=[_row("ismcts-30ms", "ismcts:seconds=0.03,iterations=0", 600.0),
                         _row("heuristic", "heuristic", 0.0)],
                   gain_per_doubling=dict(fit="least squares over ismcts-30ms", elo=10.0, ci=[-5.0, 20.0]), steps=[])
    text = ladder.markdown(dict(bootstrap=100, root="results/x", out="results/x", settings=[setting]))
    assert "2 bots in one tournament per setting: `ismcts-30ms` (`ismcts:seconds=0.03,iterations=0`), " \
           "`heuristic`." in text
    assert "python3 scripts/ladder.py --root results/x --out results/x --bootstrap 100" in text
    assert "[judgement.md](../judgement.md#6-the-strength-ladder)" in text
    assert "Ten bots" not in text and "plan:minerva" not in text
