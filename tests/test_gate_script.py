"""scripts/gate.py: a sequential match between two sides with their own weights, resumable from its log."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gate.py"
sys.path.insert(0, str(ROOT / "scripts"))

import gate as gate_script  # noqa: E402


def test_a_tiny_match_plays_every_seat_and_resumes_from_its_log(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    argv = ["--candidate", "rollout_turns=1,select=ucb,policy=0", "--incumbent", "rollout_turns=1,select=ucb,policy=0",
            "--board", "italia", "--players", "3", "--iterations", "20", "--games", "3", "--seed-start", "5",
            "--log", str(log)]
    first = gate_script.main(argv)
    assert first["games"] == 3 and first["played"] == 3 and first["decision"] == "undecided"
    seats = sorted(json.loads(line)["cand_seat"] for line in log.read_text().splitlines())
    assert seats == [0, 1, 2]
    assert first["sides"]["candidate"] == dict(search=dict(rollout_turns=1, select="ucb", policy=0.0), weights=None,
                                               value_weights=None)
    capsys.readouterr()
    # the rerun reads the log and plays nothing new: the same games, the same answer
    again = gate_script.main(argv)
    assert len(log.read_text().splitlines()) == 3
    assert {k: again[k] for k in ("games", "wins", "decision")} == {k: first[k] for k in ("games", "wins", "decision")}
    # the same log with another side is another match: refused in one line, nothing played into it
    other = [a if a != "rollout_turns=1,select=ucb,policy=0" else "rollout_turns=2,select=ucb,policy=0" for a in argv]
    done = subprocess.run([sys.executable, str(SCRIPT), *other], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: the log {log} holds games of another match (they differ in candidate, incumbent); give another "
        f"--log, or the same sides and budget to resume it"]
    assert len(log.read_text().splitlines()) == 3


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, str(SCRIPT), *args, "--log", str(tmp_path / "x.jsonl")],
                              capture_output=True, text=True, timeout=60)
    cases = [(["--iterations", "10", "--candidate-value", str(tmp_path / "nowhere")], "is not a directory of weights"),
             (["--iterations", "10", "--candidate", "c_puct=banana"], "c_puct"),
             (["--iterations", "0"], "the budget must be positive"),
             (["--seconds", "0.01", "--players", "2", "--delta", "0.6"], "--delta in (0, 0.50)"),
             (["--iterations", "10", "--candidate-seconds", "0.1"], "goes with --seconds"),
             (["--seconds", "0.01", "--candidate-seconds", "0"], "--candidate-seconds must be positive")]
    for args, words in cases:
        r = run(*args)
        assert r.returncode == 2, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert words in lines[-1] and "Traceback" not in r.stderr, (args, r.stderr)
    assert not (tmp_path / "x.jsonl").exists()


def test_a_kept_set_is_named_by_its_name(tmp_path, capsys):
    from concordia_ai.ai import policy, weight_slots
    from concordia_ai.lab import prior_weights, value_weights
    log = tmp_path / "k.jsonl"
    try:
        out = gate_script.main(["--candidate", "rollout_turns=1", "--incumbent", "rollout_turns=1",
                                "--incumbent-prior", "before-gen5", "--incumbent-value", "before-gen5",
                                "--board", "italia", "--players", "2", "--iterations", "10", "--games", "2",
                                "--log", str(log)])
    finally:      # the gate's sides hold their weights in the core's slot 0: the shipped ones back for the next test
        prior_weights.hold(str(policy.DATA_DIR))
        value_weights.hold(None)
    assert out["sides"]["incumbent"]["weights"] == str(weight_slots.SETS / "before-gen5" / "policy")
    assert out["sides"]["incumbent"]["value_weights"] == str(weight_slots.SETS / "before-gen5" / "value")
    assert out["sides"]["candidate"]["weights"] is None and out["games"] == 2
