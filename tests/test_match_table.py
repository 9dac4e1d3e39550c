"""scripts/match_table.py: one Markdown row per strength.py --json summary."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "match_table.py"
SUMMARY = dict(candidate="ismcts:iterations=2400", opponent="ismcts:iterations=600", players=4,
               all=dict(games=80, wins=30, win_rate=0.375, ci95=[0.2777, 0.4833], mean_margin=-1.25,
                        margin_se=2.04, seconds_per_move=0.0251))


def run(*paths):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, paths)], capture_output=True, text=True)


def test_a_summary_becomes_one_row_with_its_interval_and_fair_share(tmp_path):
    p = tmp_path / "random8.json"
    p.write_text("progress line\n" + json.dumps(SUMMARY) + "\n")
    r = run(p)
    assert r.returncode == 0
    assert r.stdout.splitlines()[-1] == ("| random8 | `ismcts:iterations=2400` | `ismcts:iterations=600` | 80 | "
                                         "30 (37.5 %, 27.8-48.3) | 25 % | -1.2 ± 2.0 | 25.1 |")


def test_a_file_that_is_no_summary_is_named_and_refused(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text("{\"candidate\": 1}\n")
    r = run(p)
    assert r.returncode == 2 and "broken.json is not a strength.py --json summary" in r.stderr
    assert "Traceback" not in r.stderr
