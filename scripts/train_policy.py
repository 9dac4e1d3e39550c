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

One weight set is trained on all the data and written for every player count of --players. It can tell
player counts apart (by the feature n/5) only if the data mixes them: on data of one player count that
feature is constant and takes no part, and the weights written for the other counts are those of the count
trained on, never fitted to them.
--install writes concordia_ai/data/policy/weights.npz and weights.json.
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


class Data:
    """Decisions with at least two legal moves and at least one visit; rows contiguous per decision."""

    def __init__(self, x, target, greedy, first, size, game):
        self.x, self.t, self.greedy = x, target, greedy
        self.fit_t = target          # what the loss fits (the visit distribution, or a sharpened one)
        self.first, self.size, self.game = first, size, game
        self.seg = np.repeat(np.arange(len(size)), size)

    def subset(self, keep: np.ndarray) -> "Data":
        rows = np.concatenate([np.arange(f, f + n) for f, n in zip(self.first[keep], self.size[keep])])
        size = self.size[keep]
        first = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
        return Data(self.x[rows], self.t[rows], self.greedy[rows], first, size, self.game[keep])


def load(paths: list[str]) -> Data:
    xs, ts, gs, firsts, sizes, games = [], [], [], [], [], []
    offset = 0
    for path in paths:
        with np.load(path) as z:
            x, v, g = z["feats"], z["visits"].astype(np.float64), z["greedy"]
            first, size, game = z["dec_first"], z["dec_size"], z["dec_game"]
        sums = np.add.reduceat(v, first) if len(first) else np.zeros(0)
        keep = (size >= 2) & (sums > 0)
        t = v / np.repeat(np.where(sums > 0, sums, 1), size)
        d = Data(x, t, g, first, size, game).subset(keep)
        xs.append(d.x)
        ts.append(d.t)
        gs.append(d.greedy)
        firsts.append(d.first + offset)
        sizes.append(d.size)
        games.append(d.game)
        offset += len(d.x)
    return Data(np.concatenate(xs).astype(np.float32), np.concatenate(ts), np.concatenate(gs).astype(np.float64),
                np.concatenate(firsts), np.concatenate(sizes), np.concatenate(games))


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--hidden", type=int, default=16, help=f"hidden units (0: a linear scorer; at most "
                                                              f"{core.POLICY_HIDDEN_MAX})")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--power", type=float, default=1.0,
                    help="fit the visit distribution raised to this power (>1 sharpens it; the root's visit "
                         "floor flattens the visits of a short search)")
    ap.add_argument("--players", default="2,3,4,5", help="player counts the weights are written for")
    ap.add_argument("--report", default=None, help="write the report JSON here too")
    ap.add_argument("--install", action="store_true", help="write concordia_ai/data/policy/weights.npz and .json")
    args = ap.parse_args()
    if not 0 <= args.hidden <= core.POLICY_HIDDEN_MAX:
        ap.exit(2, f"error: --hidden: {args.hidden} must be 0..{core.POLICY_HIDDEN_MAX}\n")
    try:
        players = sorted({int(n) for n in args.players.split(",")})
    except ValueError:
        ap.exit(2, f"error: --players: {args.players!r} is not a list of player counts like 2,3,4,5\n")
    if not players or any(n not in policy.PLAYER_COUNTS for n in players):
        ap.exit(2, f"error: --players: {args.players!r}: each must be one of 2, 3, 4, 5\n")
    t0 = time.process_time()
    for path in args.data:
        if not Path(path).is_file():
            ap.exit(2, f"error: --data: {path} is not a file (make it with scripts/gen_policy_data.py)\n")
    d = load(args.data)
    if d.x.shape[1] != core.POLICY_FEATURES:
        ap.exit(2, f"error: --data has {d.x.shape[1]} features; this core computes {core.POLICY_FEATURES}\n")
    fold = d.game % 10
    tr, va, te = d.subset(~np.isin(fold, (0, 5))), d.subset(fold == 0), d.subset(fold == 5)
    if not (len(tr.first) and len(va.first) and len(te.first)):
        ap.exit(2, "error: --data: too few games (ids 0 and 5 mod 10 are held out; give at least 10 games)\n")
    tr.fit_t, va.fit_t = sharpen(tr, args.power), sharpen(va, args.power)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    log(f"decisions: train {len(tr.first)}, validation {len(va.first)}, test {len(te.first)}; "
        f"rows {len(d.x)}")
    weights, fit = train(tr, va, args.hidden, args.l2, args.lr, args.steps, args.seed, log)
    z = policy.logits_numpy(weights, te.x.astype(np.float32)).astype(np.float64)
    p = seg_softmax(z, te)
    temp = greedy_temperature(tr)
    pg = seg_softmax(te.greedy / temp, te)
    pu = np.repeat(1.0 / te.size, te.size)
    entropy = cross_entropy(np.maximum(te.t, 1e-12), te)
    ce = {k: cross_entropy(q, te) for k, q in (("policy", p), ("uniform", pu), ("greedy", pg))}
    report = dict(
        data=args.data, decisions=dict(train=len(tr.first), validation=len(va.first), test=len(te.first)),
        rows=int(len(d.x)), games=int(len(np.unique(d.game))), fit=fit, greedy_temperature=temp,
        power=args.power,
        test=dict(ce_policy=round(ce["policy"], 4), ce_uniform=round(ce["uniform"], 4),
                  ce_greedy=round(ce["greedy"], 4), ce_floor_visit_entropy=round(entropy, 4),
                  kl_policy=round(ce["policy"] - entropy, 4), kl_uniform=round(ce["uniform"] - entropy, 4),
                  kl_greedy=round(ce["greedy"] - entropy, 4),
                  top1_policy=round(top1(p, te), 4), top1_greedy=round(top1(te.greedy, te), 4),
                  top1_uniform_expected=round(float(np.mean(1.0 / te.size)), 4)),
        cpu_seconds=round(time.process_time() - t0, 1),
        command="python3 scripts/train_policy.py " + " ".join(sys.argv[1:]))
    text = json.dumps(report, indent=2)
    print(text)
    if args.report:
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(args.report, text + "\n")
    if args.install:
        buf = io.BytesIO()
        np.savez(buf, **{f"p{n}_{k}": v for n in players for k, v in weights.items()})
        data = buf.getvalue()
        policy.DATA_DIR.mkdir(parents=True, exist_ok=True)
        write_atomic(str(policy.WEIGHTS), data)
        meta = dict(format=policy.FORMAT, features=core.POLICY_FEATURES, players=players, hidden=args.hidden,
                    sha256=hashlib.sha256(data).hexdigest(), command=report["command"], data=args.data,
                    trained_on=dict(games=report["games"], decisions=report["decisions"]), test=report["test"])
        write_atomic(str(policy.META), json.dumps(meta, indent=2) + "\n")
        log(f"installed {policy.WEIGHTS} and {policy.META}")


if __name__ == "__main__":
    main()
