"""scripts/strength.py: a log records what its specs meant, and a spec that means another bot today is refused
rather than resumed (a default moved: `ismcts` with 3-5 players gained c_puct_log 0.45 on 2026-12-04)."""
import json
import subprocess
import sys
from pathlib import Path

from concordia_ai.ai.bots import meaning_changes, spec_meaning

ROOT = Path(__file__).resolve().parent.parent
SPEC = "ismcts:iterations=30,rollout_turns=1,eval=hand,policy=0"


def _strength(log, *extra):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "strength.py"), "--candidate", SPEC,
                           "--opponent", "heuristic", "--board", "italia", "--players", "3", "--seeds", "1",
                           "--seed-start", "9", "--log", str(log), *extra], capture_output=True, text=True,
                          timeout=600)


def test_a_spec_means_its_resolved_search_per_player_count():
    two, four = spec_meaning("ismcts", 2), spec_meaning("ismcts", 4)
    assert (two["c_puct_log"], four["c_puct_log"]) == (0.0, 0.45) and (two["eval"], four["eval"]) == ("net", "net")
    assert "value_sha256" in four and "value_sha256" in two and "policy_sha256" in two
    assert spec_meaning("heuristic", 3) == {"kind": "heuristic"}
    assert meaning_changes(two, four) == ["c_puct_log 0.0 -> 0.45"]
    hand = spec_meaning("ismcts:eval=hand", 2)                      # no value model enters: none is named
    assert hand["eval"] == "hand" and "value_sha256" not in hand
    assert meaning_changes(hand, two) == ["eval hand -> net", f"value_sha256 (none) -> {two['value_sha256']}"]
    assert spec_meaning("ismcts:c_puct_log=0", 4)["c_puct_log"] == 0.0


def test_a_log_played_by_a_spec_that_now_means_another_bot_is_refused(tmp_path):
    log = tmp_path / "m.jsonl"
    first = _strength(log)
    assert first.returncode == 0, first.stderr
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 3 and games[0]["meaning"]["candidate"]["c_puct_base"] == 500.0
    again = _strength(log)                     # the same meaning: resumed, nothing played
    assert again.returncode == 0 and "0 games played now, 3 from the log" in again.stdout
    # as if the games had been played when the spec's c_puct_base default was another
    for g in games:
        g["meaning"]["candidate"]["c_puct_base"] = 300.0
    log.write_text("".join(json.dumps(g) + "\n" for g in games))
    stale = _strength(log)
    assert stale.returncode == 2 and "Traceback" not in stale.stderr
    assert stale.stderr.strip().splitlines()[-1] == (
        f"error: --log {log}: its games were played by the candidate {SPEC!r} when it meant another bot "
        f"(c_puct_base 300.0 -> 500.0); give a new --log, or spell the changed options in the spec")
    assert log.read_text().count("\n") == 3    # nothing the user had is lost
