#!/usr/bin/env python3
"""Train the policy prior on the search's own visit distributions (expert iteration), with numpy.

    nice python3 scripts/train_policy.py --data data/policy/g1.npz --hidden 16 --seed 1 \\
        --report results/policy/g1-training.json --install

The data is scripts/gen_policy_data.py's npz: for every searched decision, the policy features of each legal
move and the root's visits. The loss is the cross-entropy of the prior against the visit distribution
(the visits normalised per decision), plus L2 on the weights; full-batch Adam, early stopping on the
validation games. Whole games are held out, never single positions: game ids with id % 10 == 0 are the
validation set (early stopping), id % 10 == 5 the test set (the figures reported).

The report (JSON, printed and with --report written) gives, on the test games: the cross-entropy of the
prior, of the uniform prior and of the greedy heuristic's ordering (a softmax of the greedy bot's one-step
values with its temperature fitted on the training games), the visit distribution's own entropy (the floor),
and the top-1 agreement of the prior and of the greedy bot with the most visited move. Features are
standardised for training (means and scales in float64: `standardisation`) and the standardisation is folded
into the exported weights. A feature that is constant on the training rows (standard deviation below
SD_CONSTANT) is centred only, with a scale of 1, so it stays 0 in training and learns nothing.

--target picks what the prior is fitted to (lab/policy_targets.py; the data generator records all three):
`visits` (the root's visit distribution), `pruned` (the visits less those exploration forced) or `improved`
(Gumbel AlphaZero's improved policy from completed Q-values). The report's figures are always against the
chosen target, and the targets' entropy against uniform is reported beside them.

Player counts: one weight set is trained on all the data (every player count in it; the feature n/5 is
standardised by its true spread in mixed data, so the shared set can tell the counts apart through its
hidden layer) and written for every player count of --players. On data of one player count that feature is
constant and takes no part, and the weights written for the other counts are those of the count trained on,
never fitted to them. With --per-count a set is also trained on each player count's own games, and each
count gets the set (its own or the shared one) with the lower validation cross-entropy on its games; the
report gives both on each count's test games.
--install writes concordia_ai/data/policy/weights.npz and weights.json; --out DIR writes them to DIR instead.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one core: the machine is shared
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai import core  # noqa: E402
from concordia_ai.ai import policy  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.lab import policy_targets  # noqa: E402

PLAYERS_FEATURE = 78        # the feature n/5 (cext/policy.pxi: PF_MOVE + 24): data without dec_players


class Data:
    """Decisions with at least two legal moves and at least one visit; rows contiguous per decision."""

    def __init__(self, x, target, greedy, first, size, game, players):
        self.x, self.t, self.greedy = x, target, greedy
        self.fit_t = target          # what the loss fits (the target, or a sharpened one)
        self.first, self.size, self.game, self.players = first, size, game, players
        self.seg = np.repeat(np.arange(len(size)), size)

    def subset(self, keep: np.ndarray) -> "Data":
        size = self.size[keep]
        rows = (np.concatenate([np.arange(f, f + n) for f, n in zip(self.first[keep], size)]) if len(size)
                else np.zeros(0, np.int64))
        first = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64) if len(size) else np.zeros(0, np.int64)
        return Data(self.x[rows], self.t[rows], self.greedy[rows], first, size, self.game[keep],
                    self.players[keep])


def load(paths: list[str], target: str = "visits") -> Data:
    """The decisions of every file, with the chosen target normalised per decision. Game ids are kept as
    they are: files of one seed with different game ids (the loop's chunks) hold different games."""
    xs, ts, gs, firsts, sizes, games, players = [], [], [], [], [], [], []
    offset = 0
    for path in paths:
        with np.load(path) as z:
            if target not in z.files:
                raise ValueError(f"{path} has no {target!r} target (made before it was recorded: use "
                                 f"--target visits or regenerate with scripts/gen_policy_data.py)")
            x, v, g = z["feats"], z[target].astype(np.float64), z["greedy"]
            first, size, game = z["dec_first"], z["dec_size"], z["dec_game"]
            counts = (z["dec_players"] if "dec_players" in z.files
                      else np.rint(x[first, PLAYERS_FEATURE] * 5).astype(np.int64) if len(first)
                      else np.zeros(0, np.int64))
        sums = np.add.reduceat(v, first) if len(first) else np.zeros(0)
        keep = (size >= 2) & (sums > 0)
        t = v / np.repeat(np.where(sums > 0, sums, 1), size)
        d = Data(x, t, g, first, size, game, counts).subset(keep)
        xs.append(d.x)
        ts.append(d.t)
        gs.append(d.greedy)
        firsts.append(d.first + offset)
        sizes.append(d.size)
        games.append(d.game)
        players.append(d.players)
        offset += len(d.x)
    return Data(np.concatenate(xs).astype(np.float32), np.concatenate(ts), np.concatenate(gs).astype(np.float64),
                np.concatenate(firsts), np.concatenate(sizes), np.concatenate(games), np.concatenate(players))


def seg_softmax(z: np.ndarray, d: Data) -> np.ndarray:
    z = z - np.repeat(np.maximum.reduceat(z, d.first), d.size)
    e = np.exp(z)
    return e / np.repeat(np.add.reduceat(e, d.first), d.size)


def cross_entropy(p: np.ndarray, d: Data, t: np.ndarray | None = None) -> float:
    """Mean over decisions of -sum_i t_i log p_i (t: the visit distribution unless given)."""
    t = d.t if t is None else t
    return float(np.add.reduceat(-t * np.log(np.maximum(p, 1e-12)), d.first).mean())


def sharpen(d: Data, power: float) -> np.ndarray:
    """The visit distribution raised to `power` and normalised per decision (1: unchanged)."""
    if power == 1:
        return d.t
    t = d.t ** power
    return t / np.repeat(np.add.reduceat(t, d.first), d.size)


def top1(p: np.ndarray, d: Data) -> float:
    """Share of decisions where the argmax of p is a most visited move."""
    hit = 0
    for f, n in zip(d.first, d.size):
        t = d.t[f:f + n]
        hit += t[int(np.argmax(p[f:f + n]))] >= t.max() - 1e-12
    return hit / max(1, len(d.first))


class Model:
    def __init__(self, features: int, hidden: int, rng):
        # float32 throughout: the matrix products over a million rows are the cost
        self.w = np.zeros(features, np.float32)
        self.w1 = rng.normal(0, 1 / np.sqrt(features), (hidden, features)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.v = rng.normal(0, 0.1, hidden).astype(np.float32)

    def params(self):
        return [self.w, self.w1, self.b1, self.v]

    def logits(self, x):
        z = x @ self.w
        if len(self.v):
            h = np.tanh(x @ self.w1.T + self.b1)
            return z + h @ self.v, h
        return z, None

    def grads(self, x, d: Data, l2: float):
        z, h = self.logits(x)
        p = seg_softmax(z, d)
        g = ((p - d.fit_t) / len(d.first)).astype(np.float32)
        out = [x.T @ g + 2 * l2 * self.w]
        if h is not None:
            da = np.outer(g, self.v) * (1 - h * h)
            out += [da.T @ x + 2 * l2 * self.w1, da.sum(0), h.T @ g + 2 * l2 * self.v]
        else:
            out += [np.zeros_like(self.w1), np.zeros_like(self.b1), np.zeros_like(self.v)]
        return out

    def export(self, mu, sd) -> dict[str, np.ndarray]:
        """Weights on the raw features: x' = (x - mu) / sd folded in (the shift of the linear part is the
        same for every move of a node and cancels in the softmax)."""
        w1 = self.w1.astype(np.float64) / sd
        return dict(w_lin=(self.w / sd).astype(np.float32), w1=w1.astype(np.float32),
                    b1=(self.b1 - w1 @ mu).astype(np.float32), v=self.v.astype(np.float32))


# Below this standard deviation a feature counts as constant on the training rows: centred, scale 1. (In a
# million rows a one-hot feature seen once has 0.001; the player count n/5 of one player count has 0.)
SD_CONSTANT = 1e-3


def standardisation(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's mean and scale over the rows of x, accumulated in float64. (Accumulated in float32 down
    the rows of generation 1, the constant n/5 = 0.6 came out with mean 0.5956 and standard deviation 0.0044,
    and dividing by that multiplied its weights by 228 on export.) A feature whose standard deviation is
    below SD_CONSTANT gets the scale 1 (centred only), so no near-constant feature can blow up."""
    mu = x.mean(0, dtype=np.float64)
    sd = x.std(0, dtype=np.float64)
    return mu, np.where(sd < SD_CONSTANT, 1.0, sd)


def train(tr: Data, va: Data, hidden: int, l2: float, lr: float, steps: int, seed: int, log) -> tuple[dict, dict]:
    mu, sd = standardisation(tr.x)
    xt = ((tr.x - mu) / sd).astype(np.float32)
    xv = ((va.x - mu) / sd).astype(np.float32)
    model = Model(tr.x.shape[1], hidden, np.random.default_rng(seed))
    m = [np.zeros_like(a) for a in model.params()]
    s = [np.zeros_like(a) for a in model.params()]
    best, best_step, best_w, patience = np.inf, 0, None, 0
    history = []
    for step in range(1, steps + 1):
        grads = model.grads(xt, tr, l2)
        for a, g, mi, si in zip(model.params(), grads, m, s):
            mi *= 0.9
            mi += 0.1 * g
            si *= 0.999
            si += 0.001 * g * g
            a -= lr * (mi / (1 - 0.9 ** step)) / (np.sqrt(si / (1 - 0.999 ** step)) + 1e-8)
        if step % 10 == 0 or step == steps:
            ce = cross_entropy(seg_softmax(model.logits(xv)[0], va), va, va.fit_t)
            if step % 50 == 0:
                history.append((step, round(ce, 5)))
            log(f"  step {step}: validation cross-entropy {ce:.4f}")
            if ce < best - 1e-5:
                best, best_step, best_w, patience = ce, step, model.export(mu, sd), 0
            else:
                patience += 1
                if patience >= 8:
                    break
    return best_w, dict(hidden=hidden, l2=l2, lr=lr, best_step=best_step, validation_ce=round(best, 5),
                        history=history)


def greedy_temperature(d: Data) -> float:
    """The temperature of softmax(greedy value / T) that fits the training visits best (a grid)."""
    grid = [0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 12, 20, 40]
    return min(grid, key=lambda T: cross_entropy(seg_softmax(d.greedy / T, d), d))


def test_figures(weights: dict, tr: Data, te: Data) -> dict:
    """The prior's figures on the test decisions against their target, beside the uniform prior's and the
    greedy ordering's (its temperature fitted on the training decisions)."""
    z = policy.logits_numpy(weights, te.x.astype(np.float32)).astype(np.float64)
    p = seg_softmax(z, te)
    temp = greedy_temperature(tr)
    pg = seg_softmax(te.greedy / temp, te)
    pu = np.repeat(1.0 / te.size, te.size)
    entropy = cross_entropy(np.maximum(te.t, 1e-12), te)
    ce = {k: cross_entropy(q, te) for k, q in (("policy", p), ("uniform", pu), ("greedy", pg))}
    return dict(decisions=int(len(te.first)), greedy_temperature=temp,
                ce_policy=round(ce["policy"], 4), ce_uniform=round(ce["uniform"], 4),
                ce_greedy=round(ce["greedy"], 4), ce_floor_target_entropy=round(entropy, 4),
                kl_policy=round(ce["policy"] - entropy, 4), kl_uniform=round(ce["uniform"] - entropy, 4),
                kl_greedy=round(ce["greedy"] - entropy, 4),
                top1_policy=round(top1(p, te), 4), top1_greedy=round(top1(te.greedy, te), 4),
                top1_uniform_expected=round(float(np.mean(1.0 / te.size)), 4))


def validation_ce(weights: dict, va: Data) -> float:
    z = policy.logits_numpy(weights, va.x.astype(np.float32)).astype(np.float64)
    return round(cross_entropy(seg_softmax(z, va), va, va.fit_t), 5)


def split(d: Data, power: float) -> tuple[Data, Data, Data]:
    """Whole games held out: validation id % 10 == 0, test id % 10 == 5, training the rest."""
    fold = d.game % 10
    tr, va, te = d.subset(~np.isin(fold, (0, 5))), d.subset(fold == 0), d.subset(fold == 5)
    tr.fit_t, va.fit_t = sharpen(tr, power), sharpen(va, power)
    return tr, va, te


def by_count(d: Data, n: int) -> Data:
    return d.subset(d.players == n)


def fit_per_count(tr: Data, va: Data, te: Data, shared: dict, args, log) -> tuple[dict, dict]:
    """A set per player count of the data (--per-count): each count gets its own set or the shared one,
    whichever has the lower validation cross-entropy on its games; the report has both."""
    chosen, report = {}, {}
    for n in sorted(set(tr.players.tolist())):
        trn, van, ten = by_count(tr, n), by_count(va, n), by_count(te, n)
        if not (len(trn.first) and len(van.first) and len(ten.first)):
            log(f"{n} players: too few held-out games for a set of its own; the shared set is used")
            continue
        log(f"{n} players: a set of its own")
        own, fit = train(trn, van, args.hidden, args.l2, args.lr, args.steps, args.seed + n, log)
        ce_own, ce_shared = validation_ce(own, van), validation_ce(shared, van)
        chosen[n] = own if ce_own < ce_shared else shared
        report[str(n)] = dict(chosen="own" if ce_own < ce_shared else "shared", validation_ce_own=ce_own,
                              validation_ce_shared=ce_shared, fit_own=fit,
                              test_own=test_figures(own, trn, ten), test_shared=test_figures(shared, trn, ten))
    return chosen, report


def write_weights(out_dir: Path, sets: dict[int, dict], report: dict, args) -> None:
    """weights.npz and weights.json (policy.FORMAT) in out_dir: sets by player count."""
    buf = io.BytesIO()
    np.savez(buf, **{f"p{n}_{k}": v for n, w in sorted(sets.items()) for k, v in w.items()})
    data = buf.getvalue()
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(str(out_dir / policy.WEIGHTS.name), data)
    meta = dict(format=policy.FORMAT, features=core.POLICY_FEATURES, players=sorted(sets), hidden=args.hidden,
                sha256=hashlib.sha256(data).hexdigest(), command=report["command"], data=args.data,
                target=args.target, trained_on=dict(games=report["games"], decisions=report["decisions"]),
                test=report["test"], per_count={k: v["chosen"] for k, v in report.get("per_count", {}).items()})
    write_atomic(str(out_dir / policy.META.name), json.dumps(meta, indent=2) + "\n")


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--target", choices=policy_targets.TARGETS, default="visits",
                    help="what the prior is fitted to (lab/policy_targets.py)")
    ap.add_argument("--hidden", type=int, default=16, help=f"hidden units (0: a linear scorer; at most "
                                                              f"{core.POLICY_HIDDEN_MAX})")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--power", type=float, default=1.0,
                    help="fit the target raised to this power (>1 sharpens it)")
    ap.add_argument("--players", default="2,3,4,5", help="player counts the weights are written for")
    ap.add_argument("--per-count", action="store_true",
                    help="also a set per player count of the data, kept where its validation loss is lower")
    ap.add_argument("--report", default=None, help="write the report JSON here too")
    ap.add_argument("--install", action="store_true", help="write concordia_ai/data/policy/weights.npz and .json")
    ap.add_argument("--out", default=None, metavar="DIR", help="write weights.npz and weights.json to DIR")
    args = ap.parse_args(argv)
    if not 0 <= args.hidden <= core.POLICY_HIDDEN_MAX:
        ap.exit(2, f"error: --hidden: {args.hidden} must be 0..{core.POLICY_HIDDEN_MAX}\n")
    try:
        args.counts = sorted({int(n) for n in args.players.split(",")})
    except ValueError:
        ap.exit(2, f"error: --players: {args.players!r} is not a list of player counts like 2,3,4,5\n")
    if not args.counts or any(n not in policy.PLAYER_COUNTS for n in args.counts):
        ap.exit(2, f"error: --players: {args.players!r}: each must be one of 2, 3, 4, 5\n")
    for path in args.data:
        if not Path(path).is_file():
            ap.exit(2, f"error: --data: {path} is not a file (make it with scripts/gen_policy_data.py)\n")
    return ap, args


def main(argv=None) -> dict:
    ap, args = parse_args(argv)
    t0 = time.process_time()
    try:
        d = load(args.data, args.target)
    except ValueError as e:
        ap.exit(2, f"error: --data: {e}\n")
    if d.x.shape[1] != core.POLICY_FEATURES:
        ap.exit(2, f"error: --data has {d.x.shape[1]} features; this core computes {core.POLICY_FEATURES}\n")
    tr, va, te = split(d, args.power)
    if not (len(tr.first) and len(va.first) and len(te.first)):
        ap.exit(2, "error: --data: too few games (ids 0 and 5 mod 10 are held out; give at least 10 games)\n")
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    log(f"decisions: train {len(tr.first)}, validation {len(va.first)}, test {len(te.first)}; "
        f"rows {len(d.x)}; target {args.target}")
    weights, fit = train(tr, va, args.hidden, args.l2, args.lr, args.steps, args.seed, log)
    test = test_figures(weights, tr, te)
    counts_in_data = sorted(set(d.players.tolist()))
    report = dict(
        data=args.data, target=args.target, decisions=dict(train=len(tr.first), validation=len(va.first),
                                                           test=len(te.first)),
        rows=int(len(d.x)), games=int(len(np.unique(d.game))), players_in_data=counts_in_data, fit=fit,
        greedy_temperature=test.pop("greedy_temperature"), power=args.power, test=test,
        test_by_count={str(n): test_figures(weights, by_count(tr, n), by_count(te, n))
                       for n in counts_in_data if len(by_count(te, n).first) and len(by_count(tr, n).first)},
        targets={k: policy_targets.entropy_report(t, d.first, d.size) for k, t in
                 ((args.target, d.t),)})
    sets = {n: weights for n in args.counts}
    if args.per_count:
        chosen, report["per_count"] = fit_per_count(tr, va, te, weights, args, log)
        sets.update({n: w for n, w in chosen.items() if n in args.counts})
    report.update(cpu_seconds=round(time.process_time() - t0, 1),
                  command="python3 scripts/train_policy.py " + " ".join(sys.argv[1:] if argv is None else argv))
    text = json.dumps(report, indent=2)
    print(text)
    if args.report:
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(args.report, text + "\n")
    for out_dir in ([policy.DATA_DIR] if args.install else []) + ([Path(args.out)] if args.out else []):
        write_weights(Path(out_dir), sets, report, args)
        log(f"wrote {out_dir / policy.WEIGHTS.name} and {out_dir / policy.META.name}")
    return report


if __name__ == "__main__":
    main()
