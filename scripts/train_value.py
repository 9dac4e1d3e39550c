#!/usr/bin/env python3
"""Regenerate the value model: self-play positions, then numpy training, then the shipped weights.

    python3 scripts/train_value.py generate --bot heuristic --games 8000 --seed 1 --out data/value/heur.npz
    python3 scripts/train_value.py generate --bot ismcts:iterations=200 --games 2000 --seed 2 --out data/value/mcts.npz
    python3 scripts/train_value.py train --data data/value/heur.npz data/value/mcts.npz --seed 1 --install
    python3 scripts/train_value.py train --data data/loop/gen-3/value.npz --keep-others --out DIR
    python3 scripts/train_value.py train --data data/loop/gen-2/value.npz --init shipped --lr 3e-4 --epochs 4 \
        --shared 3 4 5 --search-target 0.5 --keep-others --out DIR      # a warm start from the shipped set
    python3 scripts/train_value.py evaluate --data data/value/mcts.npz [--weights DIR]

`generate` is concordia_ai.lab.selfplay on the runner (--jobs, --backend dask --scheduler ADDRESS, the TLS
files; docs/cluster.md), resumable from OUT.games.jsonl. Games are spread evenly over the four boards and 2-5
players (game i: board i % 4, players 2 + (i // 4) % 4, deal seed * 1,000,003 + i). A position is recorded at the start of every turn: every seat's features (the core's
`value_features_of`), and the labels are the game's winner (ties broken as the rules do) and every seat's
final VP. Games stopped at the turn cap are dropped. One weight set is trained per player count.

Search targets (`--search-target LAMBDA`, default 0: the labels alone): data from searching bots
(concordia_ai.lab.policy_data) also holds the search's own estimate at each position (every seat's win share
and expected final VP). With LAMBDA > 0 the win target becomes (1 - LAMBDA) onehot(winner) + LAMBDA search
win share (renormalised over the seats) and the VP target (1 - LAMBDA) final + LAMBDA search VP, on the
positions whose estimate came from a search of at least `--search-min-iters N` iterations; the other
positions (and every position of a file without estimates) keep the labels. The estimates vary far less
than one game's result, so the model should need fewer games. The held-out figures are always against the
games' real results.

Evaluation holds out whole games (every tenth game id, never single positions). `train` prints JSON with the
held-out log loss, Brier score, expected calibration error and VP error per player count, and with
--install writes concordia_ai/data/value/weights.npz and weights.json (the command, data files, bots and game
counts recorded beside the weights); with --out DIR it writes the same two files to DIR instead (a candidate
for the learning loop's gate, lab/value_weights.py: the package is left alone). --keep-others, with either,
copies the shipped networks of the player counts the data has none of, so the set is complete.

`evaluate` gives an existing weight set's held-out figures (the shipped weights, or --weights DIR) on the
given data: the same held-out games and the same figures as `train`'s report, so a new model and the shipped
one can be compared on the same games.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import platform
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai import core  # noqa: E402
from concordia_ai.ai import value  # noqa: E402
from concordia_ai.lab import value_weights  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.io import safe_read  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.lab import jobs, selfplay  # noqa: E402

HOLDOUT_EVERY = 10          # game ids divisible by this are held out


def generate(args, ap) -> None:
    """Self-play data on the runner (concordia_ai.lab.selfplay): resumable from OUT.games.jsonl."""
    try:
        info = selfplay.generate(args.bot, args.games, args.seed, args.out, args.first_id,
                                 command="python3 scripts/train_value.py " + " ".join(sys.argv[1:]),
                                 progress="games", **jobs.runner_options(args, ap))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    print(json.dumps(info))


# ---------------------------------------------------------------- training

def load_data(paths: list[str]) -> dict[int, dict[str, np.ndarray]]:
    """Positions grouped by player count: x (positions, seats, features), winner, final VP, game id, and the
    search targets (search_win, search_vp: positions x seats, NaN without an estimate; search_iters)."""
    out: dict[int, dict[str, list]] = {n: dict(x=[], winner=[], final=[], game=[], turn=[], board=[], file=[],
                                               search_win=[], search_vp=[], search_iters=[])
                                       for n in value.PLAYER_COUNTS}
    width = None
    for k, path in enumerate(paths):
        z = np.load(path)
        if width is not None and z["rows"].shape[1] != width:
            refuse(f"error: --data: {path} has {z['rows'].shape[1]} features a seat, {paths[0]} has {width}; "
                   f"valid: files of one feature layout (made by one core)")
        width = z["rows"].shape[1]
        est = selfplay.search_targets(z)
        first, players = z["pos_first"], z["pos_players"]
        for n in value.PLAYER_COUNTS:
            sel = np.nonzero(players == n)[0]
            if len(sel) == 0:
                continue
            idx = first[sel][:, None] + np.arange(n)[None, :]
            d = out[n]
            d["x"].append(z["rows"][idx])
            d["final"].append(z["row_final"][idx])
            d["winner"].append(z["pos_winner"][sel].astype(np.int64))
            # game ids are per file: keep them apart so held-out games stay whole across files
            d["game"].append(z["pos_game"][sel] * 16 + k)
            d["turn"].append(z["pos_turn"][sel])
            d["board"].append(z["pos_board"][sel])
            d["file"].append(np.full(len(sel), k, np.int16))
            d["search_win"].append(est["row_search_win"][idx])
            d["search_vp"].append(est["row_search_vp"][idx])
            d["search_iters"].append(est["pos_search_iters"][sel])
    return {n: {k: np.concatenate(v) for k, v in d.items()} for n, d in out.items() if d["x"]}


def split(d: dict, holdout: bool) -> dict:
    mask = ((d["game"] // 16) % HOLDOUT_EVERY == 0) == holdout
    return {k: v[mask] for k, v in d.items()}


def held_out(d: dict, evaluate_on: list[int] | None) -> dict:
    """d's held-out games, of the --evaluate-on files only when given (train and evaluate share this)."""
    ho = split(d, True)
    if evaluate_on is not None:
        ho = {k: v[np.isin(ho["file"], evaluate_on)] for k, v in ho.items()}
    return ho


def summary(report: dict) -> dict:
    """The printed JSON: every player count's held-out figures without the reliability table."""
    return {str(n): {k: v for k, v in r["holdout"].items() if k != "reliability"} for n, r in report.items()}


class Adam:
    def __init__(self, params: dict, lr: float):
        self.p, self.lr, self.t = params, lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, grads: dict) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def targets(d: dict, search_target: float = 0.0, search_min_iters: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
    """The win target (a distribution over the seats per position) and the VP target of d's positions, and
    how many positions took the search's estimate: the winner (one-hot) and the final VP, mixed with the
    search's win share and VP at weight `search_target` where an estimate of at least `search_min_iters`
    iterations is there (each target where its own estimate is: a search may give a win share only)."""
    n = d["x"].shape[1]
    y, f = np.eye(n, dtype=np.float32)[d["winner"]], d["final"]
    if search_target <= 0:
        return y, f, 0                    # the labels alone, exactly as before search targets existed
    lam = search_target
    searched = (d["search_iters"] > 0) & (d["search_iters"] >= search_min_iters)
    win = searched & np.all(np.isfinite(d["search_win"]), axis=1) & (d["search_win"].sum(axis=1) > 0)
    vp = searched & np.all(np.isfinite(d["search_vp"]), axis=1)
    y, f = y.astype(np.float64), f.astype(np.float64)
    share = d["search_win"][win] / d["search_win"][win].sum(axis=1, keepdims=True)
    y[win] = (1 - lam) * y[win] + lam * share
    f[vp] = (1 - lam) * f[vp] + lam * d["search_vp"][vp]
    return y.astype(np.float32), f.astype(np.float32), int(np.count_nonzero(win | vp))


def forward(prm: dict, xb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network in training on a batch xb (m, seats, features): its hidden units, P(win) per seat (a
    softmax over the seats) and the VP per seat (on the training scale, final / vp_scale)."""
    h = np.tanh(xb @ prm["w1"].T + prm["b1"])    # (m, n, H)
    s = h @ prm["w_win"]                          # (m, n)
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=1, keepdims=True)
    return h, p, h @ prm["w_vp"] + prm["b_vp"]


def loss(prm: dict, xb: np.ndarray, yb: np.ndarray, fb: np.ndarray, vp_weight: float, l2: float) -> float:
    """The training loss whose gradient `gradients` is: the cross-entropy of the win targets yb (a
    distribution over the seats per position: one-hot or soft), vp_weight x the mean squared VP error, and
    the L2 penalty l2/2 |w1|^2."""
    _, p, vp = forward(prm, xb)
    m, n = yb.shape
    return float(-np.sum(yb * np.log(p)) / m + vp_weight * np.sum((vp - fb) ** 2) / (m * n)
                 + 0.5 * l2 * np.sum(prm["w1"] ** 2))


def gradients(prm: dict, xb: np.ndarray, yb: np.ndarray, fb: np.ndarray, vp_weight: float, l2: float) -> dict:
    """The gradient of `loss` in every parameter. The softmax cross-entropy's gradient in the scores is
    p - y for any target y whose rows sum to 1, so soft targets need nothing else (targets() renormalises)."""
    h, p, vp = forward(prm, xb)
    m, n = yb.shape
    dsc = (p - yb) / m                            # softmax cross-entropy
    dvp = vp_weight * 2 * (vp - fb) / (m * n)     # mean squared VP error (scaled)
    dh = dsc[..., None] * prm["w_win"] + dvp[..., None] * prm["w_vp"]
    dz = dh * (1 - h * h)
    return dict(w1=np.einsum("mnh,mnf->hf", dz, xb) + l2 * prm["w1"], b1=dz.sum(axis=(0, 1)),
                w_win=np.einsum("mn,mnh->h", dsc, h), w_vp=np.einsum("mn,mnh->h", dvp, h),
                b_vp=np.array(dvp.sum()))


def unfold(w: dict, mu: np.ndarray, sd: np.ndarray) -> dict:
    """An exported weight set (standardisation folded into the first layer) as training parameters on
    features standardised by mu and sd: the same function of the raw features, exactly (fit's export undone)."""
    w1 = w["w1"].astype(np.float64)
    return dict(w1=w1 * sd, b1=w["b1"].astype(np.float64) + w1 @ mu, w_win=w["w_win"].astype(np.float64),
                w_vp=w["w_vp"].astype(np.float64), b_vp=np.array(float(w["b_vp"])))


def fit(ds: list[dict], hidden: int, epochs: int, seed: int, vp_weight: float, vp_scale: float, lr: float,
        l2: float, search_target: float = 0.0, search_min_iters: int = 0, init: dict | None = None) -> dict:
    """Train one network on one or more player counts' positions (minibatches of one count each, in
    shuffled order) on their targets (targets(): the labels, mixed with the search's estimates at weight
    search_target); returns the exported weights, with the standardisation folded into the first layer.
    `init`: an exported weight set to start from (a warm start: what it learned from its own data stays,
    unless the new positions move it), of this `hidden` and vp_scale, instead of random weights."""
    rng = np.random.default_rng(seed)
    F = ds[0]["x"].shape[2]
    flat = np.concatenate([d["x"].reshape(-1, F) for d in ds]).astype(np.float64)
    mu, sd = flat.mean(axis=0), flat.std(axis=0)
    sd[sd < 1e-6] = 1.0
    del flat
    sets = []
    for d in ds:
        y, f, _ = targets(d, search_target, search_min_iters)
        sets.append(dict(x=((d["x"] - mu) / sd).astype(np.float32), y=y, f=(f / vp_scale).astype(np.float32)))
    mean_final = float(np.mean(np.concatenate([s["f"].ravel() for s in sets])))
    if init is not None:
        prm = unfold(init, mu, sd)
    else:
        prm = dict(w1=rng.normal(0, 1 / np.sqrt(F), (hidden, F)), b1=np.zeros(hidden),
                   w_win=rng.normal(0, 0.1, hidden), w_vp=rng.normal(0, 0.1, hidden), b_vp=np.array(mean_final))
    opt = Adam(prm, lr)
    batch = 512
    for epoch in range(epochs):
        plan = [(k, idx) for k, st in enumerate(sets)
                for idx in np.array_split(rng.permutation(len(st["y"])), max(1, len(st["y"]) // batch))]
        for j in rng.permutation(len(plan)):
            k, idx = plan[j]
            opt.step(gradients(prm, sets[k]["x"][idx], sets[k]["y"][idx], sets[k]["f"][idx], vp_weight, l2))
        if epoch >= epochs // 2:
            opt.lr *= 0.6
    w1 = prm["w1"] / sd
    b1 = prm["b1"] - w1 @ mu
    return dict(w1=w1.astype(np.float32), b1=b1.astype(np.float32), w_win=prm["w_win"].astype(np.float32),
                w_vp=prm["w_vp"].astype(np.float32), b_vp=np.float32(prm["b_vp"]), vp_scale=np.float32(vp_scale))


def evaluate(w: dict, d: dict) -> dict:
    """The held-out figures of weights w on d's positions: always against the games' real results (the
    winner and the final VP), whatever targets the weights were trained on."""
    p, vp = value.forward_numpy(w, d["x"].astype(np.float32))
    n = d["x"].shape[1]
    y = np.eye(n)[d["winner"]]
    ece, table = value.reliability(p.ravel(), y.ravel())
    return dict(positions=int(len(p)), games=int(len(np.unique(d["game"]))),
                log_loss=float(-np.mean(np.log(np.clip(p[y == 1], 1e-9, 1)))),
                log_loss_uniform=float(np.log(n)),
                brier=float(np.mean(np.sum((p - y) ** 2, axis=1))), ece=ece,
                vp_mae=float(np.mean(np.abs(vp - d["final"]))), reliability=table)


def train(args) -> None:
    data = load_data(args.data)
    report, sets = {}, {}
    shared = None
    search = dict(search_target=args.search_target, search_min_iters=args.search_min_iters)
    init = initial_sets(args, {n: d["x"].shape[2] for n, d in data.items()})
    if args.shared:
        counts = [n for n in sorted(data) if n in args.shared]
        shared = fit([split(data[n], False) for n in counts], args.hidden, args.epochs, args.seed, args.vp_weight,
                     args.vp_scale, args.lr, args.l2, **search, init=init[counts[0]] if init and counts else None)
    for n, d in sorted(data.items()):
        tr, ho = split(d, False), held_out(d, args.evaluate_on)
        w = shared if shared is not None and n in args.shared else fit([tr], args.hidden, args.epochs, args.seed + n, args.vp_weight,
                                                  args.vp_scale, args.lr, args.l2, **search,
                                                  init=init[n] if init else None)
        sets[n] = w
        report[n] = dict(train_positions=int(len(tr["winner"])), train_games=int(len(np.unique(tr["game"]))),
                         search_targets=dict(weight=args.search_target, min_iters=args.search_min_iters,
                                             positions=targets(tr, **search)[2]),
                         holdout=evaluate(w, ho), train=evaluate(w, tr))
        print(f"{n} players: held-out log loss {report[n]['holdout']['log_loss']:.3f} "
              f"(uniform {report[n]['holdout']['log_loss_uniform']:.3f}), ECE {report[n]['holdout']['ece']:.3f}, "
              f"VP MAE {report[n]['holdout']['vp_mae']:.1f}", file=sys.stderr)
    if args.install or args.out:
        write_weights(value.DATA_DIR if args.install else Path(args.out), sets, args, report)
    if args.report:
        write_atomic(args.report, json.dumps(report, indent=2) + "\n")
    print(json.dumps(summary(report), indent=2))


def refuse(line: str) -> None:
    """Bad input: one line on stderr, exit code 2."""
    print(line, file=sys.stderr)
    raise SystemExit(2)


def initial_sets(args, features: dict[int, int]) -> dict | None:
    """--init's weight sets (None without it), checked against the network being trained: the same hidden
    size and VP scale, and for --shared one network for those counts (as the shipped set has: the same
    arrays for 3, 4 and 5 players)."""
    if args.init is None:
        return None
    try:
        sets = value.read_weights(*value_weights.weight_files(None if args.init == "shipped" else args.init))
    except ConcordiaError as e:
        refuse(f"error: --init: {e}")
    width = max(features.values(), default=0)       # load_data: every file of one layout
    for n, w in sets.items():
        if w["w1"].shape[1] < width:
            # a set of the first layout on data of the second: the new features start at weight 0, so the
            # warm start begins as exactly the set it starts from
            w["w1"] = np.concatenate([w["w1"], np.zeros((w["w1"].shape[0], width - w["w1"].shape[1]),
                                                        w["w1"].dtype)], axis=1)
        elif n in features and w["w1"].shape[1] != width:
            refuse(f"error: --init: its {n}-player network reads {w['w1'].shape[1]} features; the data "
                   f"has {width}")
        if w["w1"].shape[0] != args.hidden or abs(float(w["vp_scale"]) - args.vp_scale) > 1e-6:
            refuse(f"error: --init: its {n}-player network has {w['w1'].shape[0]} hidden units and VP "
                   f"scale {float(w['vp_scale']):g}; valid: --hidden and --vp-scale equal to them")
    if args.shared and len({sets[n]["w1"].tobytes() for n in args.shared if n in sets}) > 1:
        refuse(f"error: --init: its networks for {args.shared} differ; valid: a set trained with the same "
               f"--shared")
    return sets


def games_behind(sources: list[dict], report: dict, init: dict | None) -> int:
    """Every game the set learned from: the data files' (from their side files, else counted in the data: the
    training and held-out games of every player count) and, after a warm start, the games behind --init's set
    (`init`: init_record's answer)."""
    if all(s["games"] for s in sources):
        own = sum(s["games"] for s in sources)
    else:
        own = sum(r["train_games"] + r["holdout"]["games"] for r in report.values())
    return int(own + ((init or {}).get("games") or 0))


def init_record(source: str | None) -> dict | None:
    """What a warm start began from, for weights.json: the set's directory (or `shipped`), its sha256, and how
    it was made (its command, data and game count), so the games behind a warm-started set stay on record."""
    if source is None:
        return None
    meta = value_weights.weight_files(None if source == "shipped" else source)[1]
    info = safe_read.read_json(str(meta))      # read and checked once already (initial_sets)
    return dict(source=source, sha256=info.get("sha256"), command=info.get("command"), data=info.get("data"),
                games=info.get("games"), init=info.get("training", {}).get("init"))


def write_weights(directory: Path, sets: dict, args, report: dict) -> None:
    """weights.npz and weights.json (value.FORMAT, as value.read_weights checks them) in `directory`: the
    package's (--install) or any other (--out). Each file is replaced in one step."""
    arrays, kept = {f"p{n}_{k}": v for n, w in sets.items() for k, v in w.items()}, {}
    if args.keep_others:
        kept = keep_shipped_others(sets, arrays)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    data = buf.getvalue()
    # the metadata first (it reads every data file): the two files are then replaced one right after the other
    meta = metadata(args, report, sets, kept, hashlib.sha256(data).hexdigest())
    directory.mkdir(parents=True, exist_ok=True)
    write_atomic(str(directory / value.WEIGHTS.name), data)
    write_atomic(str(directory / value.META.name), json.dumps(meta, indent=2) + "\n")


def keep_shipped_others(sets: dict, arrays: dict) -> dict:
    """Add the shipped networks of the player counts not retrained to `arrays`; returns their records (the
    command, data and held-out figures they were shipped with). The shipped ones, wherever the set goes."""
    if not value.WEIGHTS.exists():
        return {}
    old_meta = json.loads(value.META.read_text())
    with np.load(value.WEIGHTS) as old:
        for name in old.files:
            if int(name[1:name.index("_")]) not in sets:
                arrays[name] = old[name]
    return {str(n): dict(command=old_meta.get("command"), data=old_meta.get("data"),
                         holdout=old_meta.get("holdout", {}).get(str(n)))
            for n in old_meta.get("player_counts", []) if n not in sets}


def metadata(args, report: dict, sets: dict, kept: dict, sha256: str) -> dict:
    """weights.json: the format and checksum value.read_weights checks, and how the weights were made."""
    init = init_record(args.init)
    sources = []
    for path in args.data:
        side = Path(str(path) + ".json")
        info = json.loads(side.read_text()) if side.exists() else {}
        sources.append(dict(file=str(path), sha256=hashlib.sha256(Path(path).read_bytes()).hexdigest(),
                            bot=info.get("bot"), games=info.get("games_kept"), seed=info.get("seed"),
                            command=info.get("command")))
    return dict(format=value.FORMAT, features=max(w["w1"].shape[1] for w in sets.values()), hidden=args.hidden,
                sha256=sha256, player_counts=sorted({*sets, *map(int, kept)}),
                kept_from_before=kept,
                command="python3 scripts/train_value.py " + " ".join(sys.argv[1:]),
                training=dict(seed=args.seed, shared=args.shared, epochs=args.epochs, lr=args.lr, l2=args.l2,
                              init=init,
                              vp_weight=args.vp_weight, vp_scale=args.vp_scale, search_target=args.search_target,
                              search_min_iters=args.search_min_iters, holdout=f"game id % {HOLDOUT_EVERY} == 0"),
                data=sources, games=games_behind(sources, report, init), holdout=summary(report),
                python=platform.python_version(), numpy=np.__version__)


# ---------------------------------------------------------------- evaluating a weight set

def evaluate_weights(args, ap) -> None:
    """The held-out figures of an existing weight set (the shipped one, or --weights DIR) on --data: the
    held-out games of `train` and its report's figures, per player count of the data."""
    try:
        sets = value.read_weights(*value_weights.weight_files(args.weights))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    report = {n: dict(holdout=evaluate(sets[n], held_out(d, args.evaluate_on)))
              for n, d in sorted(load_data(args.data).items())}
    if args.report:
        write_atomic(args.report, json.dumps(report, indent=2) + "\n")
    print(json.dumps(summary(report), indent=2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="play self-play games and record positions")
    g.add_argument("--bot", default="heuristic")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--first-id", type=int, default=0)
    g.add_argument("--out", required=True, help="the npz; its log is OUT.games.jsonl (a rerun resumes it)")
    jobs.add_runner_options(g)
    t = sub.add_parser("train", help="fit the weights on recorded positions")
    t.add_argument("--data", nargs="+", required=True)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--hidden", type=int, default=32)
    t.add_argument("--epochs", type=int, default=8)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--l2", type=float, default=1e-4)
    t.add_argument("--vp-weight", type=float, default=1.0)
    t.add_argument("--vp-scale", type=float, default=50.0)
    t.add_argument("--shared", type=int, nargs="*", default=None, metavar="N",
                   help="one network shared by these player counts (all with no N: more data per weight); the "
                        "other counts get a network each")
    t.add_argument("--search-target", type=float, default=0.0, metavar="LAMBDA",
                   help="the search estimates' weight in the targets, 0..1 (0: the games' results alone)")
    t.add_argument("--search-min-iters", type=int, default=0, metavar="N",
                   help="with --search-target: only estimates from searches of at least N iterations")
    t.add_argument("--evaluate-on", type=int, nargs="+", default=None, metavar="K",
                   help="report held-out figures on the games of these --data files only (0-based)")
    t.add_argument("--init", default=None, metavar="DIR",
                   help="start from this weight set (a directory of weights.npz and weights.json, or `shipped`) "
                        "instead of random weights: a warm start that keeps what it learned from its own data; "
                        "use a smaller --lr")
    t.add_argument("--report", default=None, help="write the full held-out report (with reliability tables) here")
    where = t.add_mutually_exclusive_group()
    where.add_argument("--install", action="store_true", help="write the package's weights and metadata")
    where.add_argument("--out", default=None, metavar="DIR",
                       help="write weights.npz and weights.json to DIR instead of the package")
    t.add_argument("--keep-others", action="store_true",
                   help="with --install or --out: keep the shipped networks of the player counts not in --data")
    e = sub.add_parser("evaluate", help="the held-out figures of an existing weight set")
    e.add_argument("--data", nargs="+", required=True)
    e.add_argument("--weights", default=None, metavar="DIR",
                   help="the directory of weights.npz and weights.json (default: the shipped weights)")
    e.add_argument("--evaluate-on", type=int, nargs="+", default=None, metavar="K",
                   help="held-out games of these --data files only (0-based), as train's")
    e.add_argument("--report", default=None, help="write the full held-out report (with reliability tables) here")
    args = ap.parse_args()
    if getattr(args, "shared", None) == []:
        args.shared = list(value.PLAYER_COUNTS)
    if args.cmd == "train" and not 0 <= args.search_target <= 1:
        ap.error(f"--search-target: {args.search_target} must be in 0..1")
    if args.cmd == "generate":
        generate(args, g)
    elif args.cmd == "evaluate":
        evaluate_weights(args, e)
    else:
        train(args)


if __name__ == "__main__":
    main()
