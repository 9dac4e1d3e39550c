"""The learning loop, one generation per call (issue 25, deliverable 4): self-play in resumable chunks,
training, a gate, a results page. scripts/loop.py is its command line; docs/loop.md how to run it.

    >>> run_generation(Settings(games=400, chunk=100, players="2,3,4,5", per_count=True, jobs=2), log=print)

A generation N (by default the one after the last in ROOT) does, each step resumable and skipped when its
outputs are there:
1. self-play by the incumbent (its search with `search`'s budget, its prior), in chunks of game ids of one
   seed (lab.policy_data, with playout cap randomization): ROOT/gen-N/data/chunk-K.npz (compressed, committed)
   and .value.npz; the chunks' game logs under WORK (large, not committed; a restart resumes them).
2. training: scripts/train_policy.py on every chunk (weights to ROOT/gen-N/weights) and, with `value`,
   scripts/train_value.py train on the same games (a report of the held-out losses, and its weights in
   ROOT/gen-N/value-weights, completed with the shipped networks of the player counts it has no games of;
   never installed), its targets mixed with the self-play searches' own estimates at weight
   `value_search_target` (0: the games' results alone; the held-out figures are against the results);
   with `value_window` K > 1 also on the self-play of the K-1 generations before (ROOT/gen-M/data), its
   held-out figures on this generation's games alone, so that they compare with a window of 1.
3. the gate (lab.gate): the candidate (the incumbent's knobs, then `candidate`'s, with the new weights, and
   with `value_gate` the new value weights too; else the shipped value model) against the incumbent at fixed
   iterations, stopped by an SPRT; "worse" ends the generation there. Then at equal time (seconds per move):
   the generation is kept only if the test says "better".
4. kept: the weights are copied to `install_dir` (the package's policy data by default) and ROOT/best.json
   names the generation (with `value_gate`, its value weights too, which stay where they are): the next
   generation's incumbent, which searches in the gate with the value weights best.json names.
The page ROOT/gen-N/README.md is rewritten after every step and every gate batch; ROOT/gen-N/generation.json
holds the settings and every step's figures.

The incumbent of the first generation is `incumbent` (knobs; default today's default search, no prior).
Seeds: the self-play games use seed * 1000 + N; the gate's deals start at gate_seed + 1000 N (the fixed
stage) and gate_seed + 1000 N + 500 (equal time); training uses `seed`.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..ai import policy, value
from ..ai.bots import BotSpecError, parse_spec
from ..ai.search import SearchConfig, SearchConfigError
from ..engine.errors import ConcordiaError
from ..io import safe_read
from ..io.atomic_write import open_append, write_atomic
from . import gate, policy_data, selfplay
from .loop_page import render_page

REPO = Path(__file__).resolve().parents[2]


class LoopError(ConcordiaError):
    """A generation that cannot go on (a bad setting, a failed training)."""


@dataclass
class Settings:
    root: str = "results/loop"
    work: str = "data/loop"
    generation: int | None = None            # None: the one after the last in root
    seed: int = 1
    # self-play
    games: int = 400
    chunk: int = 100
    boards: str = "italia"
    players: str = "3"
    search: str = "iterations=1600,select=puct,prior=true"   # self-play knobs over the incumbent's (its budget)
    cap_share: float | None = 0.25
    cap_fast: int = 200
    incumbent: str = ""                      # knobs of the first generation's incumbent (no best.json yet)
    # training
    target: str = "pruned"
    hidden: int = 16
    steps: int = 400
    per_count: bool = False
    value: bool = True
    value_epochs: int = 8
    value_search_target: float = 0.0         # train_value.py --search-target: the search estimates' weight
    value_warm: bool = False                 # train on from the incumbent's value model (train_value.py --init)
    value_gate: bool = False                 # the candidate searches with the generation's value model too
    value_window: int = 1                    # the value model's games: this generation's and the K-1 before it
    # the gate
    candidate: str = "select=puct,policy=1"  # knobs over the incumbent's for the candidate
    gate_board: str = "italia"
    gate_players: int = 3
    gate_iterations: int = 400
    gate_games: int = 120
    gate_seconds: float = 0.03
    gate_time_games: int = 200
    gate_delta: float = 0.1
    gate_alpha: float = 0.05
    gate_beta: float = 0.05
    gate_seed: int = 60000
    jobs: int = 1
    install_dir: str = str(policy.DATA_DIR)
    commit: bool = False
    command: str = ""
    extra: dict = field(default_factory=dict)


WARM_VALUE_LR = 3e-4       # --value-warm's learning rate (train_value.py's default is 3e-3)


def parse_knobs(text: str, name: str) -> dict:
    """KEY=VALUE,... as SearchConfig knobs, read as the `ismcts` bot spec reads its options (typed and
    checked: ai.bots.parse_spec); `name`: the setting, for the message."""
    try:
        return parse_spec("ismcts:" + (text or ""))[1]
    except BotSpecError as e:
        raise LoopError(f"{name}: {str(e).removeprefix('bot ismcts: ')}") from None


def incumbent_of(s: Settings) -> dict:
    """ROOT/best.json (the last kept generation: its knobs, its policy weights and, when it was gated with
    its own value model, `value_weights`), else the first generation's incumbent: with a learned prior in its
    knobs, the shipped weights, named, so that the gate puts them into the core for it (no value weights:
    the gate gives a side without them the shipped value model)."""
    best = Path(s.root) / "best.json"
    if best.exists():
        return safe_read.read_json(str(best))
    knobs = parse_knobs(s.incumbent, "--incumbent")
    config = SearchConfig(**{"iterations": 1, **knobs})    # the knobs over the defaults (the prior is on by default)
    return dict(generation=0, search=knobs, weights=str(policy.DATA_DIR) if config.reads_prior else None)


def next_generation(root: str) -> int:
    done = [int(p.name.split("-")[1]) for p in Path(root).glob("gen-*") if p.name.split("-")[1].isdigit()]
    return max(done, default=0) + (1 if not done or (Path(root) / f"gen-{max(done)}" / "decision.json").exists()
                                   else 0)


class Generation:
    """One generation's files and state; every step reads and writes through here."""

    def __init__(self, s: Settings, log=print):
        self.s, self.log = s, log
        self.n = s.generation if s.generation is not None else next_generation(s.root)
        self.dir = Path(s.root) / f"gen-{self.n}"
        self.work = Path(s.work) / f"gen-{self.n}"
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "data").mkdir(exist_ok=True)
        self.work.mkdir(parents=True, exist_ok=True)
        self.state_file = self.dir / "generation.json"
        self.state = safe_read.read_json(str(self.state_file)) if self.state_file.exists() else {}
        if "incumbent" not in self.state:
            self.state.update(generation=self.n, settings=asdict(s), incumbent=incumbent_of(s), steps={})
        self.state["settings"] = asdict(s)    # this run's settings (the page names its command)
        for name, knobs in (("--candidate", self.candidate_search()), ("the incumbent", self.incumbent["search"])):
            try:
                SearchConfig(**knobs)
            except (SearchConfigError, TypeError) as e:
                raise LoopError(f"{name}: {e}") from None
        self.save()

    # ------------------------------------------------------------ bookkeeping
    def save(self) -> None:
        write_atomic(str(self.state_file), json.dumps(self.state, indent=2) + "\n")
        write_atomic(str(self.dir / "README.md"), render_page(self.state))

    def step(self, name: str, value: dict) -> None:
        self.state["steps"][name] = value
        self.save()

    def commit(self, what: str) -> None:
        if self.s.commit:
            commit_paths([self.dir] + ([Path(self.s.root) / "best.json"] if (Path(self.s.root) / "best.json")
                                       .exists() else []), f"loop gen-{self.n}: {what}", self.log)

    @property
    def incumbent(self) -> dict:
        return self.state["incumbent"]

    def candidate_search(self) -> dict:
        return {**self.incumbent["search"], **parse_knobs(self.s.candidate, "--candidate")}

    @property
    def value_weights(self) -> Path:
        """Where train_value.py --out writes this generation's value model."""
        return self.dir / "value-weights"

    def candidate_value_weights(self) -> str | None:
        """The candidate's value model: this generation's with value_gate, else None (the shipped one)."""
        return str(self.value_weights) if self.s.value_gate else None

    # ------------------------------------------------------------ 1. self-play
    def selfplay(self) -> list[str]:
        s = self.s
        search = {**self.incumbent["search"], **parse_knobs(s.search, "--search")}
        cap = policy_data.PlayoutCap(s.cap_share, s.cap_fast) if s.cap_share else None
        seed = s.seed * 1000 + self.n
        chunks, infos = [], []
        for k, first in enumerate(range(0, s.games, s.chunk)):
            out = self.dir / "data" / f"chunk-{k:03d}.npz"
            size = min(s.chunk, s.games - first)
            info_file = Path(str(out) + ".json")
            info = safe_read.read_json(str(info_file)) if info_file.exists() else None
            if info is None or info.get("games_asked") != size or info.get("first_id") != first:
                self.log(f"gen {self.n}: self-play chunk {k} (games {first}..{first + size - 1})")
                info = policy_data.generate(
                    search, s.boards.split(","), [int(n) for n in s.players.split(",")], size, seed, str(out),
                    cap=cap, first_id=first, value=s.value, log=str(self.work / f"chunk-{k:03d}.games.jsonl"),
                    weights=self.incumbent.get("weights"), value_weights=self.incumbent.get("value_weights"),
                    jobs=s.jobs,
                    command=f"(scripts/loop.py, generation {self.n}, chunk {k})")
                self.commit(f"self-play chunk {k}")
            chunks.append(str(out))
            infos.append({k2: info[k2] for k2 in ("first_id", "games_asked", "games_kept", "searched", "decisions",
                                                   "rows", "targets", "seconds", "cpu_seconds")})
        self.step("selfplay", dict(search=search, cap=asdict(cap) if cap else None, seed=seed, boards=s.boards,
                                   players=s.players, chunks=chunks, infos=infos,
                                   npz_bytes=sum(Path(c).stat().st_size for c in chunks)))
        return chunks

    # ------------------------------------------------------------ 2. training
    def train(self, chunks: list[str]) -> None:
        s = self.s
        weights = self.dir / "weights"
        report = self.dir / "policy-training.json"
        cmd = [sys.executable, str(REPO / "scripts" / "train_policy.py"), "--data", *chunks, "--target", s.target,
               "--hidden", str(s.hidden), "--steps", str(s.steps), "--seed", str(s.seed), "--report", str(report),
               "--out", str(weights)] + (["--per-count"] if s.per_count else [])
        if not (report.exists() and (weights / policy.WEIGHTS.name).exists()):
            self.log(f"gen {self.n}: training the policy")
            run_script(cmd, self.dir / "policy-training.log")
        self.step("policy", dict(command=shown(cmd), report=safe_read.read_json(str(report)),
                                 weights=str(weights)))
        if s.value:
            self.train_value(chunks)
        self.commit("training")

    def window(self) -> list[int]:
        """The earlier generations whose self-play the value model also trains on (value_window), oldest
        first: those of the K-1 before this one that recorded value data."""
        import numpy as np
        from .. import core
        gens = []
        for m in range(max(1, self.n - self.s.value_window + 1), self.n):
            files = [v for v in self.value_files_of(m) if Path(v).exists()]
            if not files:
                self.log(f"gen {self.n}: generation {m} has no value data; the value model's window skips it")
                continue
            with np.load(files[0]) as z:
                width = z["rows"].shape[1]
            if width != core.VALUE_FEATURES:     # made by a core of another feature layout (docs/value.md)
                self.log(f"gen {self.n}: generation {m}'s value data has {width} features a seat, this core "
                         f"{core.VALUE_FEATURES}; the value model's window skips it")
                continue
            gens.append(m)
        return gens

    def value_files_of(self, m: int) -> list[str]:
        """Generation m's chunks' value data files (chunk-K.value.npz beside each chunk-K.npz)."""
        chunks = sorted((Path(self.s.root) / f"gen-{m}" / "data").glob("chunk-[0-9][0-9][0-9].npz"))
        return [policy_data.value_path(str(c)) for c in chunks]

    def train_value(self, chunks: list[str]) -> None:
        merged = self.work / "value.npz"
        report = self.dir / "value-training.json"
        window = self.window()
        earlier = [self.work / f"value-gen-{m}.npz" for m in window]
        # --keep-others: the player counts without games take the shipped networks, so the set is complete
        cmd = [sys.executable, str(REPO / "scripts" / "train_value.py"), "train", "--data",
               *map(str, earlier), str(merged), "--seed",
               str(self.s.seed), "--epochs", str(self.s.value_epochs), "--report", str(report),
               "--out", str(self.value_weights), "--keep-others"]
        if window:    # the held-out figures on this generation's games (its file is the last)
            cmd += ["--evaluate-on", str(len(earlier))]
        if self.s.value_search_target > 0:
            cmd += ["--search-target", str(self.s.value_search_target)]
        if self.s.value_warm:
            # from the model the incumbent searches with, at a tenth of the rate: trained on further, the
            # shipped model beat its own retraining from scratch (results/value-warm/README.md)
            cmd += ["--init", self.incumbent.get("value_weights") or "shipped", "--lr", str(WARM_VALUE_LR)]
        # a generation trained before the weights were written gets them when the gate needs them
        missing = self.s.value_gate and not self.value_weights_written()
        if not report.exists() or missing:
            self.log(f"gen {self.n}: training the value model (a report and weights; not installed)")
            merge_value_files([policy_data.value_path(c) for c in chunks], merged)
            for m, out in zip(window, earlier):
                merge_value_files(self.value_files_of(m), out)
            run_script(cmd, self.dir / "value-training.log")
        full = safe_read.read_json(str(report))
        self.step("value", dict(command=shown(cmd), holdout={n: {k: v for k, v in r["holdout"].items()
                                                                  if k != "reliability"}
                                                              for n, r in full.items()},
                                search_target=self.s.value_search_target, window=window,
                                # per player count: the training positions that took the search's estimate
                                search_positions={n: [r.get("search_targets", {}).get("positions", 0),
                                                      r["train_positions"]] for n, r in full.items()},
                                weights=str(self.value_weights) if self.value_weights_written() else None))

    def value_weights_written(self) -> bool:
        return (self.value_weights / value.WEIGHTS.name).exists()

    # ------------------------------------------------------------ 3. the gate
    def gate_stage(self, stage: str, budget: dict, max_games: int, seed_start: int) -> dict:
        s = self.s
        sides = self.gate_sides()
        test = gate.Sprt.against_fair_share(s.gate_players, s.gate_delta, s.gate_alpha, s.gate_beta)
        self.log(f"gen {self.n}: gate at {stage} ({budget})")

        def progress(result):
            self.state["steps"][f"gate_{stage}"] = dict(result, running=True)
            self.save()
        result = gate.run_stage(stage, sides, budget, s.gate_board, s.gate_players, seed_start, test, max_games,
                                str(self.dir / f"gate-{stage}.jsonl"), on_batch=progress, jobs=s.jobs)
        self.step(f"gate_{stage}", result)
        self.commit(f"gate at {stage}")
        return result

    def gate_sides(self) -> dict[str, gate.Side]:
        """The candidate (its prior trained here; its value model too with value_gate) and the incumbent
        (the weights best.json names: value weights only when a value-gated generation was kept)."""
        inc = self.incumbent
        return dict(candidate=gate.Side(self.candidate_search(), str(self.dir / "weights"),
                                        self.candidate_value_weights()),
                    incumbent=gate.Side(inc["search"], inc.get("weights"), inc.get("value_weights")))

    def gate(self) -> str:
        s = self.s
        base = s.gate_seed + 1000 * self.n
        fixed = self.gate_stage("fixed", dict(iterations=s.gate_iterations, seconds=0.0), s.gate_games, base)
        if fixed["decision"] == "worse":
            return "rejected at fixed iterations"
        timed = self.gate_stage("time", dict(iterations=0, seconds=s.gate_seconds), s.gate_time_games, base + 500)
        return "kept" if timed["decision"] == "better" else "rejected at equal time"

    # ------------------------------------------------------------ 4. keep or not
    def decide(self, verdict: str) -> dict:
        kept = verdict == "kept"
        decision = dict(verdict=verdict, kept=kept)
        if kept:
            src = self.dir / "weights"
            dst = Path(self.s.install_dir)
            dst.mkdir(parents=True, exist_ok=True)
            for name in (policy.WEIGHTS.name, policy.META.name):
                shutil.copyfile(src / name, dst / name)
            best = dict(generation=self.n, search=self.candidate_search(), weights=str(src))
            if self.s.value_gate:
                best["value_weights"] = self.candidate_value_weights()
            write_atomic(str(Path(self.s.root) / "best.json"), json.dumps(best, indent=2) + "\n")
            decision.update(installed=str(dst), best=best)
        write_atomic(str(self.dir / "decision.json"), json.dumps(decision, indent=2) + "\n")
        self.step("decision", decision)
        self.commit(f"decision: {verdict}")
        return decision


def shown(cmd: list[str]) -> str:
    """A command as the page shows it: python3 and paths relative to the repository where they are in it."""
    def rel(a: str) -> str:
        try:
            return str(Path(a).resolve().relative_to(REPO))
        except ValueError:
            return a
    return " ".join(["python3"] + [rel(a) for a in cmd[1:]])


def run_script(cmd: list[str], log_file: Path) -> None:
    """Run one of the scripts; its stderr goes to log_file, a failure is a LoopError naming the log."""
    with open_append(str(log_file)) as err:     # a rerun's output follows the last one's
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err, cwd=REPO)
    if done.returncode != 0:
        tail = safe_read.read_text(str(log_file))[-800:]
        raise LoopError(f"{shown(cmd)} failed (exit {done.returncode}); its log {log_file}:\n{tail}")


def merge_value_files(paths: list[str], out: Path) -> None:
    """The chunks' value data as one file (lab.selfplay's format; the game ids are distinct across chunks,
    so the held-out games stay whole and train_value.py sees one file)."""
    import numpy as np
    parts = [dict(np.load(p)) for p in paths if Path(p).exists()]
    # every part with the search targets (none in a chunk made before them), so the arrays line up
    parts = [dict(p, **selfplay.search_targets(p)) for p in parts if len(p.get("pos_first", []))]
    if not parts:
        raise LoopError("no value data in the chunks (self-play without --value?)")
    merged, offset = {}, 0
    for k in parts[0]:
        merged[k] = []
    for p in parts:
        for k, v in p.items():
            merged[k].append(v + offset if k == "pos_first" else v)
        offset += len(p["rows"])
    selfplay_arrays = {k: np.concatenate(v) for k, v in merged.items()}
    policy_data.save_npz(str(out), selfplay_arrays)


def commit_paths(paths: list[Path], message: str, log=print, tries: int = 20, repo: Path = REPO) -> None:
    """git add and commit these paths only (another process may hold the index: retried)."""
    names = [str(Path(p).resolve()) for p in paths]
    for attempt in range(tries):
        add = subprocess.run(["git", "add", "--", *names], cwd=repo, capture_output=True, text=True)
        if add.returncode == 0:
            staged = subprocess.run(["git", "diff", "--cached", "--quiet", "--", *names], cwd=repo)
            if staged.returncode == 0:
                return                     # nothing new under these paths
            done = subprocess.run(["git", "commit", "-q", "-m", message, "--", *names], cwd=repo,
                                  capture_output=True, text=True)
            if done.returncode == 0:
                return
            err = done.stderr
        else:
            err = add.stderr
        if "index.lock" not in err:
            log(f"git commit failed: {err.strip()}")
            return
        time.sleep(0.5 + attempt * 0.5)
    log("git commit: the index stayed locked; commit by hand")


def run_generation(s: Settings, log=print) -> dict:
    """One whole generation (resumed where it stopped); returns its decision."""
    if s.games < 10:
        raise LoopError(f"--games: {s.games}: at least 10 (game ids 0 and 5 mod 10 are held out)")
    if not 0 <= s.value_search_target <= 1:
        raise LoopError(f"--value-search-target: {s.value_search_target} must be in 0..1")
    if s.value_window < 1:
        raise LoopError(f"--value-window: {s.value_window}: at least 1 (this generation's games)")
    if s.value_gate and not s.value:
        raise LoopError("--value-gate: the candidate's value model is trained by --value (off here)")
    for flag, n in (("--gate-games", s.gate_games), ("--gate-time-games", s.gate_time_games)):
        if n < 1:
            raise LoopError(f"{flag}: {n}: at least 1 (a generation is kept or not by its gate's games)")
    g = Generation(s, log)
    if "decision" in g.state["steps"]:
        log(f"gen {g.n}: already decided ({g.state['steps']['decision']['verdict']})")
        return g.state["steps"]["decision"]
    chunks = g.selfplay()
    g.train(chunks)
    return g.decide(g.gate())
