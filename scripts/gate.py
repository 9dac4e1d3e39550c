#!/usr/bin/env python3
"""A sequential match between two searches, each with its own policy prior and value model: the learning
loop's gate (concordia_ai/lab/gate.py) on its own, for a screen that stops as soon as it is decided.

    nice python3 scripts/gate.py --candidate rollout_turns=2 --candidate-value results/loop/gen-2/value-weights \
        --board imperium --players 4 --seconds 0.03 --games 200 --jobs 2 --log results/x/gate.jsonl

The candidate plays once in every seat of every deal (seed-start, seed-start + 1, ...), the other seats the
incumbent. Knobs are SearchConfig's KEY=VALUE,... over the defaults (as an `ismcts` bot spec reads them).
A side's prior and value model are directories of weights (scripts/train_policy.py --out, train_value.py
train --out); without one a side searches with the shipped weights, never with the other side's. The test
is an SPRT of H0 "the candidate wins its fair share" against H1 "the fair share + delta", read over the games
in their fixed order; it stops the match when decided ("better" or "worse"), or at --games ("undecided").
Budgets are in iterations (--iterations) or CPU seconds per search (--seconds: equal time, as the gate's
second stage); --candidate-seconds gives the candidate its own time (four times the time, issue 25 (c)), and
--fixed plays every game of --games (a confirmation of fixed size). The log (--log, one game a line) resumes:
rerun the command to go on; each game keeps the sides and budget it was played with and what the sides' knobs
stood for then (`setup`: eval and c_puct_log as "auto" resolved, the shipped weights' sha256), and a log of
another match, or of knobs that stand for another search today, is refused rather than counted. Prints JSON: the test's
answer, the games counted, wins with their 95 % interval, the mean margin and the time per move of each side.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.ai import weight_slots  # noqa: E402
from concordia_ai.lab import gate  # noqa: E402
from concordia_ai.lab.loop import parse_knobs  # noqa: E402


def weights_dir(path: str | None, flag: str, ap, kind: str) -> str | None:
    """The directory a weights flag names: a directory, or a set the package keeps (weight_slots.SETS), given
    as its folder so that the gate's sides hold a directory as before."""
    if path is None:
        return None
    d = weight_slots.directory_of(kind, path)
    if not d.is_dir():
        ap.exit(2, f"error: {flag}: {path} is not a directory of weights (weights.npz and weights.json) nor a "
                   f"kept set ({', '.join(weight_slots.kept_sets()) or 'none'})\n")
    return path if d == Path(path) else str(d)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidate", default="", help="the candidate's knobs over the defaults")
    ap.add_argument("--candidate-prior", default=None, metavar="DIR", help="its policy weights: a directory or a kept set's name, e.g. before-gen5 "
                    "(default: shipped)")
    ap.add_argument("--candidate-value", default=None, metavar="DIR", help="its value weights (default: shipped)")
    ap.add_argument("--incumbent", default="", help="the incumbent's knobs over the defaults")
    ap.add_argument("--incumbent-prior", default=None, metavar="DIR")
    ap.add_argument("--incumbent-value", default=None, metavar="DIR")
    ap.add_argument("--board", default="italia", choices=("imperium", "italia", "creta", "aegyptus"))
    ap.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5))
    budget = ap.add_mutually_exclusive_group(required=True)
    budget.add_argument("--iterations", type=int, help="iterations per search, both sides")
    budget.add_argument("--seconds", type=float, help="CPU seconds per search, both sides (equal time)")
    ap.add_argument("--candidate-seconds", type=float, default=None, metavar="S",
                    help="the candidate's own CPU seconds per search (default: --seconds for both): four times "
                         "the time is --seconds 0.03 --candidate-seconds 0.12")
    ap.add_argument("--games", type=int, default=200, help="the most games (default 200)")
    ap.add_argument("--fixed", action="store_true",
                    help="play all --games whatever the test says (a match of fixed size, to confirm a screen): "
                         "the figures count every game, `sprt_games` says where the test stood")
    ap.add_argument("--delta", type=float, default=0.1, help="H1: the fair share + this (default 0.1)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--seed-start", type=int, default=70000)
    ap.add_argument("--log", required=True, help="one game a line (resumable)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    if (args.iterations is not None and args.iterations < 1) or (args.seconds is not None and args.seconds <= 0):
        ap.exit(2, "error: the budget must be positive (--iterations N >= 1 or --seconds S > 0)\n")
    if args.candidate_seconds is not None and (args.candidate_seconds <= 0 or args.seconds is None):
        ap.exit(2, "error: --candidate-seconds must be positive and goes with --seconds (both sides in time)\n")
    if args.games < 1 or not 0 < args.delta < 1 - 1 / args.players:
        ap.exit(2, f"error: --games must be >= 1 and --delta in (0, {1 - 1 / args.players:.2f})\n")
    try:
        sides = dict(candidate=gate.Side(parse_knobs(args.candidate, "--candidate"),
                                         weights_dir(args.candidate_prior, "--candidate-prior", ap, "policy"),
                                         weights_dir(args.candidate_value, "--candidate-value", ap, "value"),
                                         None if args.candidate_seconds is None
                                         else dict(iterations=0, seconds=args.candidate_seconds)),
                     incumbent=gate.Side(parse_knobs(args.incumbent, "--incumbent"),
                                         weights_dir(args.incumbent_prior, "--incumbent-prior", ap, "policy"),
                                         weights_dir(args.incumbent_value, "--incumbent-value", ap, "value")))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    budget = (dict(iterations=args.iterations, seconds=0.0) if args.iterations is not None
              else dict(iterations=0, seconds=args.seconds))
    stage = "fixed" if args.iterations is not None else "time"
    test = gate.Sprt.against_fair_share(args.players, args.delta, args.alpha, args.beta)
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    try:
        result = gate.run_stage(stage, sides, budget, args.board, args.players, args.seed_start, test, args.games,
                                args.log, stop=not args.fixed, jobs=args.jobs)
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    result["command"] = "python3 scripts/gate.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    result["sides"] = {k: v.as_task() for k, v in sides.items()}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
