"""The learning loop (lab.loop, scripts/loop.py): tiny generations in a temporary directory, end to end
(self-play in chunks, training, the gate, the page), kept or rejected by the gate, resumed, and the next
generation's incumbent."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from concordia_ai.ai import policy
from concordia_ai.lab import gate, loop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import loop as loop_script  # noqa: E402


@pytest.fixture(autouse=True)
def core_without_weights_after():
    yield
    policy.unload()       # a gate bot or a search leaves its prior in the core: the next test finds none


def tiny(tmp_path, **over) -> loop.Settings:
    """About 10 s of CPU: 10 two-player games at 30 iterations (a quarter recorded), a 10-game gate; the first
    incumbent the UCB search without a prior (at 30 iterations the default PUCT search can stall a 2-player game
    until the turn cap, and the held-out games would be missing)."""
    s = dict(root=str(tmp_path / "loop"), work=str(tmp_path / "work"), install_dir=str(tmp_path / "installed"),
             incumbent="select=ucb,policy=0", games=10, chunk=5, players="2", search="iterations=30,rollout_turns=2", cap_fast=10, steps=40,
             hidden=4, value=False, gate_players=2, gate_iterations=30, gate_games=10, gate_seconds=0.002,
             gate_time_games=10, gate_delta=0.4, gate_alpha=0.1, gate_beta=0.1)
    s.update(over)
    return loop.Settings(**s)


def fake_games(monkeypatch, wins):
    """The gate's games replaced by outcomes from wins(task) (the runner plays in this process with jobs=1)."""
    def play(task):
        return dict({k: task[k] for k in gate.KEY}, win=wins(task), rank=1, margin=5, cand_seconds=0.01,
                    cand_choices=10, inc_seconds=0.01, inc_choices=10)
    monkeypatch.setattr(gate, "play_gate_game", play)


def test_a_tiny_generation_runs_end_to_end_and_its_verdict_follows_the_gate(tmp_path):
    lines = []
    argv = ["--root", str(tmp_path / "loop"), "--work", str(tmp_path / "work"), "--install-dir",
            str(tmp_path / "installed"), "--games", "10", "--chunk", "5", "--players", "2", "--search",
            "iterations=30,rollout_turns=2", "--cap-fast", "10", "--steps", "40", "--hidden", "4",
            "--gate-players", "2", "--gate-iterations", "30", "--gate-games", "6", "--gate-seconds", "0.002",
            "--gate-time-games", "6", "--incumbent", "select=ucb,policy=0"]
    decision = loop_script.main(argv)
    gen = tmp_path / "loop" / "gen-1"
    state = json.loads((gen / "generation.json").read_text())
    steps = state["steps"]
    # self-play: two chunks of game ids 0-4 and 5-9, compressed, with the value model's positions
    assert [i["first_id"] for i in steps["selfplay"]["infos"]] == [0, 5]
    assert all(i["decisions"] == i["searched"]["full"] > 0 for i in steps["selfplay"]["infos"])
    for k in (0, 1):
        with np.load(gen / "data" / f"chunk-00{k}.npz") as z:
            assert set(z["dec_game"].tolist()) == set(range(5 * k, 5 * k + 5))
        assert (gen / "data" / f"chunk-00{k}.value.npz").exists()
    # training: the policy's report and weights, the value model's held-out figures
    assert steps["policy"]["report"]["games"] == 10 and (gen / "weights" / "weights.npz").exists()
    assert steps["value"]["holdout"]["2"]["positions"] > 0
    # the gate and the verdict
    fixed = steps["gate_fixed"]
    assert fixed["games"] <= 6 and fixed["decision"] in ("better", "worse", "undecided")
    if fixed["decision"] == "worse":
        assert decision["verdict"] == "rejected at fixed iterations" and "gate_time" not in steps
    else:
        kept = steps["gate_time"]["decision"] == "better"
        assert decision["kept"] == kept
        assert decision["verdict"] == ("kept" if kept else "rejected at equal time")
    assert (tmp_path / "installed" / "weights.npz").exists() == decision["kept"]
    page = (gen / "README.md").read_text()
    assert f"**{decision['verdict']}**" in page and "python3 scripts/loop.py --root" in page
    assert "| pruned |" in page and "python3 scripts/train_policy.py" in page
    # a rerun finds the generation decided and plays nothing
    played = len((gen / "gate-fixed.jsonl").read_text().splitlines())
    assert loop.run_generation(loop.Settings(**dict(state["settings"], generation=1)), log=lines.append) == decision
    assert len((gen / "gate-fixed.jsonl").read_text().splitlines()) == played
    assert lines == ["gen 1: already decided (" + decision["verdict"] + ")"]


def test_a_generation_that_wins_at_equal_time_is_kept_and_becomes_the_next_incumbent(tmp_path, monkeypatch):
    fake_games(monkeypatch, lambda task: 1)
    s = tiny(tmp_path, candidate="policy=0.3")
    decision = loop.run_generation(s, log=lambda m: None)
    assert decision["verdict"] == "kept"
    root = tmp_path / "loop"
    steps = json.loads((root / "gen-1" / "generation.json").read_text())["steps"]
    # four straight wins decide both stages (p1 0.9: 4 x 0.588 > ln 9)
    assert (steps["gate_fixed"]["decision"], steps["gate_fixed"]["games"]) == ("better", 4)
    assert (steps["gate_time"]["decision"], steps["gate_time"]["games"]) == ("better", 4)
    installed = tmp_path / "installed"
    assert (installed / "weights.npz").read_bytes() == (root / "gen-1" / "weights" / "weights.npz").read_bytes()
    best = json.loads((root / "best.json").read_text())
    assert best == dict(generation=1, search=dict(select="ucb", policy=0.3), weights=str(root / "gen-1" / "weights"))
    # the next generation: the kept one is its incumbent and plays its self-play with that prior
    g2 = loop.Generation(tiny(tmp_path, games=10, chunk=10), log=lambda m: None)
    assert g2.n == 2 and g2.incumbent == best
    g2.selfplay()
    info = json.loads((root / "gen-2" / "data" / "chunk-000.npz.json").read_text())
    assert info["weights"] == best["weights"] and info["search"]["policy"] == 0.3 and info["decisions"] > 0
    assert info["value_weights"] is None                 # kept without a value model of its own: the shipped one


def test_the_self_play_of_a_generation_searches_with_the_value_model_best_json_names(tmp_path, monkeypatch):
    root = tmp_path / "loop"
    root.mkdir()
    best = dict(generation=1, search=dict(select="ucb", policy=0), weights=None, value_weights="gen-1/value-weights")
    (root / "best.json").write_text(json.dumps(best))
    asked = []

    def generate(search, boards, players, games, seed, out, **options):
        asked.append(options)
        info = dict(first_id=options["first_id"], games_asked=games, games_kept=games, searched={}, decisions=0,
                    rows=0, targets={}, seconds=0.0, cpu_seconds=0.0)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_bytes(b"")
        Path(out + ".json").write_text(json.dumps(info))
        return info
    monkeypatch.setattr(loop.policy_data, "generate", generate)
    monkeypatch.setattr(loop.Generation, "step", lambda self, name, value: None)   # no page for fake chunks
    loop.Generation(tiny(tmp_path), log=lambda m: None).selfplay()
    assert [a["value_weights"] for a in asked] == ["gen-1/value-weights"] * 2


def test_a_generation_that_loses_at_fixed_iterations_stops_there(tmp_path, monkeypatch):
    fake_games(monkeypatch, lambda task: 0)
    decision = loop.run_generation(tiny(tmp_path), log=lambda m: None)
    assert decision == dict(verdict="rejected at fixed iterations", kept=False)
    root = tmp_path / "loop"
    steps = json.loads((root / "gen-1" / "generation.json").read_text())["steps"]
    assert (steps["gate_fixed"]["decision"], steps["gate_fixed"]["games"]) == ("worse", 2)
    assert "gate_time" not in steps and not (root / "best.json").exists()
    assert not (tmp_path / "installed").exists()
    assert "### At equal time\n\nNot played." in (root / "gen-1" / "README.md").read_text()


def test_a_generation_undecided_at_equal_time_is_not_kept(tmp_path, monkeypatch):
    # H1 at the fair share + 0.1: a win adds 0.182, a loss -0.223, the bounds are +-2.197. The candidate
    # wins every game at fixed iterations (10 wins: 1.82, undecided, so the gate goes on), then one game of
    # each deal at equal time: never decided, so not kept
    fake_games(monkeypatch, lambda task: 1 if task["stage"] == "fixed" else int(task["cand_seat"] == 0))
    decision = loop.run_generation(tiny(tmp_path, gate_delta=0.1, gate_time_games=6), log=lambda m: None)
    assert decision == dict(verdict="rejected at equal time", kept=False)
    steps = json.loads((tmp_path / "loop" / "gen-1" / "generation.json").read_text())["steps"]
    assert (steps["gate_fixed"]["decision"], steps["gate_fixed"]["games"]) == ("undecided", 10)
    assert (steps["gate_time"]["decision"], steps["gate_time"]["games"]) == ("undecided", 6)


def test_the_value_model_trains_on_the_searches_estimates_when_asked(tmp_path, monkeypatch):
    fake_games(monkeypatch, lambda task: 0)
    loop.run_generation(tiny(tmp_path, value=True, value_search_target=0.5), log=lambda m: None)
    gen = tmp_path / "loop" / "gen-1"
    val = json.loads((gen / "generation.json").read_text())["steps"]["value"]
    assert val["command"].endswith("--search-target 0.5") and val["search_target"] == 0.5
    took, positions = val["search_positions"]["2"]
    assert 0 < took <= positions          # 2 players: the turn starts whose decision was searched
    page = (gen / "README.md").read_text()
    assert (f"mixed with the self-play searches' own estimates at weight 0.5 (training positions with an "
            f"estimate: 2 players {took} of {positions})") in page


def test_a_warm_value_model_trains_on_from_the_incumbents(tmp_path, monkeypatch):
    fake_games(monkeypatch, lambda task: 0)
    loop.run_generation(tiny(tmp_path, value=True, value_warm=True), log=lambda m: None)
    gen = tmp_path / "loop" / "gen-1"
    val = json.loads((gen / "generation.json").read_text())["steps"]["value"]
    assert val["command"].endswith(f"--init shipped --lr {loop.WARM_VALUE_LR}")   # no best.json: the shipped set
    init = json.loads((gen / "value-weights" / "weights.json").read_text())["training"]["init"]
    assert init["source"] == "shipped"


def test_a_value_window_trains_on_earlier_generations_and_holds_out_this_ones_games(tmp_path, monkeypatch):
    fake_games(monkeypatch, lambda task: 0)          # rejected at fixed iterations: the next generation follows
    loop.run_generation(tiny(tmp_path, value=True), log=lambda m: None)
    loop.run_generation(tiny(tmp_path, value=True, value_window=3), log=lambda m: None)
    root = tmp_path / "loop"
    val1 = json.loads((root / "gen-1" / "generation.json").read_text())["steps"]["value"]
    val2 = json.loads((root / "gen-2" / "generation.json").read_text())["steps"]["value"]
    earlier = tmp_path / "work" / "gen-2" / "value-gen-1.npz"
    # generation 0 does not exist: the window is generation 1 alone, its file first, this one's last
    assert val2["window"] == [1] and val1["window"] == []
    assert f"--data {earlier} {tmp_path / 'work' / 'gen-2' / 'value.npz'} " in val2["command"]
    assert "--evaluate-on 1" in val2["command"] and "--evaluate-on" not in val1["command"]
    # generation 1's merged file holds its own games' positions (the same as its own training read)
    with np.load(earlier) as z, np.load(tmp_path / "work" / "gen-1" / "value.npz") as own:
        assert np.array_equal(z["rows"], own["rows"]) and np.array_equal(z["pos_game"], own["pos_game"])
    # held out: this generation's games only (each tiny generation's 10 games hold out game 0)
    with np.load(tmp_path / "work" / "gen-2" / "value.npz") as z:
        held = int((z["pos_game"] % 10 == 0).sum())
    assert held > 0 and val2["holdout"]["2"]["positions"] == held
    report = json.loads((root / "gen-2" / "value-training.json").read_text())["2"]
    assert report["train_games"] == 18                # nine of each generation's ten games
    page = (root / "gen-2" / "README.md").read_text()
    assert ("train_value.py on the turn starts of the same games and of generation 1's self-play;" in page
            and "Held-out games (id % 10 == 0, this generation's only)" in page)
    # a generation made by a core of the first feature layout (60 columns) is skipped with a line in the log
    for chunk in sorted((root / "gen-1" / "data").glob("chunk-[0-9][0-9][0-9].value.npz")):
        z = dict(np.load(chunk))
        z["rows"] = np.ascontiguousarray(z["rows"][:, :60])
        np.savez(chunk, **z)
    lines = []
    g3 = loop.Generation(tiny(tmp_path, value=True, value_window=3), log=lines.append)
    assert g3.n == 3 and g3.window() == [2]
    assert any("generation 1's value data has 60 features a seat" in line for line in lines)


def test_a_value_gated_generation_gives_the_candidate_its_value_model_and_best_json_names_it(tmp_path,
                                                                                              monkeypatch):
    from concordia_ai.ai import value
    sides = []
    fake_games(monkeypatch, lambda task: sides.append((task["candidate"], task["incumbent"])) or 1)
    decision = loop.run_generation(tiny(tmp_path, value=True, value_gate=True, candidate="policy=0.3"),
                                   log=lambda m: None)
    root = tmp_path / "loop"
    gen = root / "gen-1"
    own = str(gen / "value-weights")
    # train_value.py --out --keep-others: a complete set the gate can hold (2 players trained here)
    meta = gen / "value-weights" / "weights.json"
    assert sorted(value.read_weights(gen / "value-weights" / "weights.npz", meta)) == [2, 3, 4, 5]
    assert json.loads(meta.read_text())["kept_from_before"].keys() == {"3", "4", "5"}
    steps = json.loads((gen / "generation.json").read_text())["steps"]
    assert steps["value"]["weights"] == own and steps["value"]["command"].endswith(
        f"--out {own} --keep-others")
    # every gate game: the candidate with this generation's value model, the incumbent with the shipped one
    assert sides and all(c["value_weights"] == own and i["value_weights"] is None for c, i in sides)
    assert decision["verdict"] == "kept"
    best = json.loads((root / "best.json").read_text())
    assert best == dict(generation=1, search=dict(select="ucb", policy=0.3), weights=str(gen / "weights"),
                        value_weights=own)
    page = (gen / "README.md").read_text()
    assert f", the value model trained here (`{root}/gen-1/value-weights`)" in page
    assert "its weights in `value-weights/`, never installed: the candidate searches with it" in page
    # the next generation's incumbent searches with those value weights; its candidate without --value-gate
    # with the shipped ones
    g2 = loop.Generation(tiny(tmp_path), log=lambda m: None)
    assert g2.incumbent == best
    s2 = g2.gate_sides()
    assert s2["incumbent"].value_weights == own and s2["candidate"].value_weights is None
    assert f"value model `{own}`" in (root / "gen-2" / "README.md").read_text()


def test_without_the_value_gate_the_sides_search_with_the_shipped_value_model(tmp_path):
    g = loop.Generation(tiny(tmp_path, value=True), log=lambda m: None)
    assert {k: s.value_weights for k, s in g.gate_sides().items()} == dict(candidate=None, incumbent=None)
    assert g.gate_sides()["candidate"].weights == str(g.dir / "weights")


def test_bad_settings_are_refused(tmp_path):
    with pytest.raises(loop.LoopError, match="at least 10"):
        loop.run_generation(tiny(tmp_path, games=4))
    for flag in ("gate_games", "gate_time_games"):       # crashed in the gate before (an empty list of games)
        with pytest.raises(loop.LoopError, match=f"--{flag.replace('_', '-')}: 0: at least 1"):
            loop.run_generation(tiny(tmp_path, **{flag: 0}))
    with pytest.raises(loop.LoopError, match="--value-search-target: 1.5 must be in 0..1"):
        loop.run_generation(tiny(tmp_path, value_search_target=1.5))
    with pytest.raises(loop.LoopError, match="--value-window: 0: at least 1"):
        loop.run_generation(tiny(tmp_path, value_window=0))
    with pytest.raises(loop.LoopError, match="--value-gate: the candidate's value model is trained by --value"):
        loop.run_generation(tiny(tmp_path, value_gate=True))          # tiny: value=False
    with pytest.raises(loop.LoopError, match="--candidate: search config: policy"):
        loop.run_generation(tiny(tmp_path, candidate="policy=-1"))


def test_commit_paths_commits_those_paths_only(tmp_path):
    import subprocess
    repo = tmp_path / "repo"
    repo.mkdir()
    git = lambda *a: subprocess.run(["git", *a], cwd=repo, capture_output=True, text=True, check=True)  # noqa
    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (repo / "other.txt").write_text("someone else's work\n")
    git("add", "other.txt")                               # staged by another process, not ours to commit
    gen = repo / "results" / "gen-1"
    gen.mkdir(parents=True)
    (gen / "README.md").write_text("page\n")
    loop.commit_paths([gen], "loop gen-1: a step", repo=repo)
    assert git("log", "--format=%s").stdout.split("\n")[0] == "loop gen-1: a step"
    assert git("show", "--name-only", "--format=").stdout.split() == ["results/gen-1/README.md"]
    assert "A  other.txt" in git("status", "--short").stdout
    # nothing new: no commit, no error
    loop.commit_paths([gen], "loop gen-1: again", repo=repo, log=pytest.fail)
    assert len(git("log", "--format=%s").stdout.split("\n")) == 2


def test_a_first_incumbent_with_a_prior_names_the_shipped_weights(tmp_path):
    assert loop.incumbent_of(tiny(tmp_path, incumbent="policy=0.3"))["weights"] == str(policy.DATA_DIR)
    assert loop.incumbent_of(tiny(tmp_path))["weights"] is None                 # UCB without a prior
    # the default search asks for the prior: its weights are named, never left to whatever the core holds
    assert loop.incumbent_of(tiny(tmp_path, incumbent=""))["weights"] == str(policy.DATA_DIR)
