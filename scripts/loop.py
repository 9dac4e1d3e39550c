#!/usr/bin/env python3
"""One generation of the learning loop (concordia_ai.lab.loop; docs/loop.md): self-play in resumable chunks,
training the policy (and the value model: a report and weights in gen-N/value-weights, in the gate with
--value-gate), a gate at fixed iterations and then at equal time (SPRTs), and the results page
ROOT/gen-N/README.md. The generation is kept (its policy weights installed, ROOT/best.json naming it) only if
it wins at equal time. Rerun the same command to resume it.

    nice python3 scripts/loop.py --games 400 --chunk 100 --boards italia,imperium --players 2,3,4,5 \\
        --per-count --gate-board italia --gate-players 3 --jobs 2 --commit

    # a tiny generation (under a minute): sizes only
    python3 scripts/loop.py --root /tmp/loop --work /tmp/loop-work --install-dir /tmp/loop-weights \\
        --games 10 --chunk 5 --players 2 --search iterations=30,rollout_turns=2 --cap-fast 10 \\
        --steps 50 --gate-players 2 --gate-iterations 30 --gate-games 10 --gate-seconds 0.002 \\
        --gate-time-games 10

Every setting is a flag (--help lists them with their defaults); knobs are SearchConfig's KEY=VALUE,...
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core per process: the machine is shared
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.lab import loop  # noqa: E402

HELP = dict(
    root="the generations' pages, data and weights (committed)", work="the self-play game logs (not committed)",
    generation="the generation to run or resume (default: the one after the last decided)",
    seed="self-play seed * 1000 + N, training seed", games="self-play games", chunk="games per chunk",
    boards="self-play boards, a list", players="self-play player counts, a list",
    search="self-play knobs over the incumbent's (the full budget)",
    cap_share="playout cap: the share of decisions at the full budget, recorded (0: every decision)",
    cap_fast="playout cap: the fast searches' iterations", incumbent="the first generation's incumbent's knobs",
    target="visits, pruned or improved", hidden="the prior's hidden units", steps="training steps",
    per_count="also a prior per player count, kept where it validates better",
    value="train the value model on the same games (a report)", value_epochs="the value model's epochs",
    value_search_target="the value model's targets: the weight of the self-play searches' own estimates "
                        "beside the games' results, 0..1 (train_value.py --search-target)",
    value_gate="the candidate searches with the generation's value model too (else the shipped one)",
    value_window="the value model trains on this generation's self-play and the K-1 generations' before it "
                 "(their value data; held-out figures on this generation's games)",
    value_warm="train the value model on further from the incumbent's (best.json's value weights, else the "
               "shipped ones; train_value.py --init, lr 3e-4) instead of from random weights",
    candidate="knobs over the incumbent's for the candidate", gate_board="the gate's board",
    gate_players="the gate's player count", gate_iterations="the fixed stage's iterations per search",
    gate_games="the fixed stage's most games", gate_seconds="the equal-time stage's CPU seconds per search",
    gate_time_games="the equal-time stage's most games", gate_delta="H1: the fair share + this",
    gate_alpha="the SPRT's alpha", gate_beta="the SPRT's beta", gate_seed="the gate's first deal (+ 1000 N)",
    jobs="parallel games", install_dir="where a kept generation's weights go",
    commit="git commit the generation's files after every step (only those paths)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for f in dataclasses.fields(loop.Settings):
        if f.name in ("command", "extra"):
            continue
        flag = "--" + f.name.replace("_", "-")
        default = f.default
        if isinstance(default, bool):
            ap.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=HELP[f.name])
        elif f.name in ("generation", "cap_share"):
            ap.add_argument(flag, type=int if f.name == "generation" else float, default=default,
                            help=f"{HELP[f.name]} (default {default})")
        else:
            ap.add_argument(flag, type=type(default), default=default, help=f"{HELP[f.name]} (default {default})")
    return ap


def main(argv=None) -> dict:
    ap = parser()
    args = ap.parse_args(argv)
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(loop.Settings)
              if f.name not in ("command", "extra")}
    if values["cap_share"] == 0:
        values["cap_share"] = None
    shown = sys.argv[1:] if argv is None else argv
    settings = loop.Settings(**values, command="python3 scripts/loop.py " + " ".join(shown))
    try:
        decision = loop.run_generation(settings, log=lambda m: print(m, file=sys.stderr, flush=True))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    print(json.dumps(decision))
    return decision


if __name__ == "__main__":
    main()
