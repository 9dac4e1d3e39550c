"""scripts/bench_search.py runs every configuration it lists, at tiny budgets (the rates are not checked: the
machines are shared). A configuration without a budget of its own takes the truncated-rollout one."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_search.py"
sys.path.insert(0, str(SCRIPT.parent))
import bench_search  # noqa: E402


def run(*argv) -> dict:
    done = subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_full_bench_measures_every_configuration_at_both_positions():
    out = run("--reps", "1", "--iterations", "100", "--iterations-full", "20", "--iterations-greedy", "50",
              "--memory-iterations", "0")
    for position in ("opening", "mid"):
        rows = out["positions"][position]
        assert list(rows) == list(bench_search.CONFIGS)
        assert rows["rt4"]["iterations"] == 100 and rows["rt4_pol"]["iterations"] == 50
        assert rows["full"]["iterations"] == 20 and rows["policy_ro"]["iterations"] == 50


GEN3 = "results/loop/gen-3/value-weights"      # a set of the first layout, as the shipped one


def test_compare_with_value_sets_runs_each_configuration_with_each_set():
    out = run("--compare", "rt4,ucb", "--values", f"shipped,{GEN3}", "--reps", "2", "--iterations", "100")
    assert list(out["configs"]) == ["rt4@shipped", f"rt4@{GEN3}", "ucb@shipped", f"ucb@{GEN3}"]
    assert out["configs"]["rt4@shipped"]["ratio_to_first"] == 1.0
    assert all(len(m["rates"]) == 2 for m in out["configs"].values())      # one search a round each
    assert out["configs"][f"ucb@{GEN3}"]["value"] == GEN3


def test_bad_configurations_and_value_sets_are_refused_in_one_line():
    for argv, says in ((("--compare", "rt4,rt4"), "names one twice"),
                       (("--compare", "rt4", "--values", "shipped,shipped"), "names one twice"),
                       (("--compare", "nosuch"), "unknown nosuch"),
                       (("--compare", "rt4", "--values", "no/such/dir"), "--values: no/such/dir:"),
                       (("--values", "shipped"), "only with --compare")):
        done = subprocess.run([sys.executable, str(SCRIPT), *argv, "--reps", "1", "--iterations", "50"],
                              capture_output=True, text=True, timeout=120)
        err = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(err) == 1 and says in err[0], done.stderr
