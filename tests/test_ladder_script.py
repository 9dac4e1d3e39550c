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


def _tiny_tournament(root: Path) -> None:
    import subprocess
    subprocess.run([sys.executable, "-c", "from concordia_ai.cli import main; main()", "tournament",
                    "--bot", "r=random", "--bot", "g=greedy", "--map", "italia", "--players", "2", "--games", "4",
                    "--seed", "3", "--out", str(root / "italia-2p"), "--quiet"], check=True, capture_output=True,
                   cwd=ROOT)


def test_another_anchor_rates_that_bot_zero_and_a_tournament_without_timed_bots_has_no_slope(tmp_path):
    _tiny_tournament(tmp_path)
    report = ladder.analyse(str(tmp_path / "italia-2p"), reps=10, seed=0, anchor="g")
    ratings = {r["bot"]: r["rating"] for r in report["bots"]}
    assert ratings["g"] == 0.0 and report["anchor"] == "g" and report["gain_per_doubling"] is None
    assert report["steps"] == []
    # the same games anchored at the other bot: the same gap, the other zero
    other = {r["bot"]: r["rating"] for r in ladder.analyse(str(tmp_path / "italia-2p"), 10, 0, anchor="r")["bots"]}
    assert other["r"] == 0.0 and abs((other["g"] - other["r"]) - (ratings["g"] - ratings["r"])) < 1e-9
    text = ladder.markdown(dict(bootstrap=10, root="x", out="x", settings=[dict(title="2-player Italia", **report)]))
    assert "anchored at `g` = 0" in text and "--anchor g" in text and "per doubling" not in text


def test_an_anchor_that_did_not_play_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    _tiny_tournament(tmp_path)
    monkeypatch.setattr(sys, "argv", ["ladder.py", "--root", str(tmp_path), "--out", str(tmp_path),
                                      "--bootstrap", "5", "--anchor", "heuristic"])
    assert ladder.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--anchor heuristic: not a bot of" in err and "(r, g)" in err
