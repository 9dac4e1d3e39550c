"""The final-result model: one predicted distribution of the final scores, from which every figure a player
reads comes (win shares, expected final VP, expected margin), so that they cannot disagree.

Seat i's final score is modelled as

    S_i = v_i + sigma * (G_i - EULER),      G_i independent standard Gumbel draws,

so E[S_i] = v_i and, exactly (the Gumbel-max identity),

    win share_i       = softmax(v / sigma)_i                    (they sum to 1 by construction)
    expected VP_i     = v_i
    expected margin_i = E[S_i - max_{j != i} S_j] = v_i - sigma * log sum_{j != i} exp(v_j / sigma)

With two players the share is a logistic function of the expected margin, v_i - v_j.

The locations v come from mu, every seat's mean estimated final VP in the search after the move (the
core backs them up: `seat_vp`), or from the evaluation of the position itself when nothing was searched:

    v_i = mean(mu) + b + k (mu_i - mean(mu)) - d [i is the deciding seat]

b corrects the evaluation's level, k how far apart it puts the seats, d the search's optimism for the
seat it plans for (it plays that seat's moves better than the others'). Each of b, k, d and log sigma is
linear in the horizon h (the share of the market cards still to be bought, 0 once the game's end is
triggered): the opening, with the longest horizon, gets the widest distribution. The horizon does not
tell the first round from the rounds after it (no card is bought for several rounds), so in the first
round the distribution is a mixture: with weight `open_scale` (in [0, 1]) the one above, with the rest the
same distribution with every seat at the mean location (no seat ahead). What the search sees of the seats
after one turn each at most says little about who wins, and the data says so. Every figure is the
mixture's, so they still agree: shares f p + (1 - f) / n, expected VP f v_i + (1 - f) mean(v), margin
f m_i + (1 - f) (-sigma log(n - 1)) (with 2 players the base below in place of the even part). The first
round also has a scale of its own, open_sigma (both parts): from there a game's final scores spread far wider
than the sigma fitted over the later rounds puts them
(with 3-4 players the first round's margins came out about 10 VP too close). With 3 players or more,
`_fit_first_round` sets open_sigma so that the first round's shown margins average the real final ones, and
open_scale by the winner's likelihood under it. With 2 players the margin v_1 - v_2 does not depend on
the scale, so open_sigma stays 0 (the fitted sigma); what the first round needs there is a base of its own
for the deciding seat in place of the even part: its share open_p and its mean margin open_m (the base's
expected VP: the seats' mean location, +- open_m / 2). After the first seat's first turn the search puts it
ahead (55-58 % on the four boards), but in self-play of the bot the hint stands for the first seat won 465 of
1,000 games (results/outcome/selfplay-2p-net/), and by no less on average (its mean final margin about 0): a
share and a margin that one location cannot both give (open_d, an optimism on top of d, did, and moved the
margin 2 VP with the share; files may still hold it). open_p and open_scale are fitted together by the
winner's likelihood over the first round's rows, open_m so that their shown margins average the real ones.
The first round also has a level of its own, open_b (VP, added to b, so it moves every seat's expected VP
alike and neither a share nor the margin): the mean of its rows' real
final scores less the shown (`Model.for_position` marks a model as reading the first round). The mixture is a
monotone map of the model's own figures, so it changes no order: the core's halving reads the model's own share
(core_tuple, at the first round's scale there: every turn of one position is read in one stage), and the final
pick's tie floor is taken on the model's own scale (search.final_pick, TurnCandidate.scale). The coefficients are
fitted per evaluation (hand or net), player count and search budget on held-out positions from games with mixed
opponents (`fit`, run by scripts/outcome_fit.py on the data of scripts/outcome_data.py), and kept in
data/value/outcome.json:

    {"format": "concordia-outcome-v1",
     "search": {"focus": 0.25, "select": "ucb", "policy": 0.0, ..., "value_sha256": "...", "policy_sha256": null},
     "models": [{"eval": "hand", "players": 2, "seconds": 3.0,
                 "b": [b0, b1], "k": [k0, k1], "d": [d0, d1], "log_sigma": [s0, s1], ...}, ...]}

(each coefficient pair is [value at h = 0, change per unit of h]). `seconds` is the CPU time of one search
thread the model was fitted at; 0 means the position's own evaluation, without a search. A search uses
the model of its evaluation and player count fitted nearest to its budget on a log scale; `note` says
when none was fitted within BUDGET_FACTOR of it. `search` is the search the models were fitted on (every
knob of SearchConfig but those of UNFITTED_KNOBS, and the sha256 of the learned weights it read:
search_record); `search_note` says when a search is another one (older files do not record it: no check).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import numpy as np

from ..engine.content import DATA_DIR as PACKAGE_DATA
from ..engine.errors import ConcordiaError

FORMAT = "concordia-outcome-v1"
MODELS = PACKAGE_DATA / "value" / "outcome.json"
EULER = 0.5772156649015329
# iterations per CPU second of one search thread, to place an iteration budget on the seconds scale
# (measured: a median of 125,000-180,000 at 0.1-3 s in the earlier calibration runs, results/calibration*/)
ITERATIONS_PER_SECOND = 140_000
BUDGET_FACTOR = 10.0
MIN_K, MIN_SIGMA = 0.05, 0.5
MAX_OPEN_SIGMA = 60.0   # VP: a wider first-round scale would say more about the bots than about the position


class OutcomeModelError(ConcordiaError):
    """A model file that is damaged or holds a model that is not a distribution."""


@dataclass(frozen=True)
class Model:
    """The coefficients of one setting: each a pair (value at h = 0, change per unit of h)."""
    eval: str
    players: int
    seconds: float
    b: tuple[float, float] = (0.0, 0.0)
    k: tuple[float, float] = (1.0, 0.0)
    d: tuple[float, float] = (0.0, 0.0)
    log_sigma: tuple[float, float] = (math.log(8.0), 0.0)
    fitted: bool = True
    w: tuple[float, float] = (0.0, 0.0)     # VP per unit of the log win value (L below); 0: VP alone
    open_scale: float = 1.0                 # the first round's weight on the model's own distribution
    first_round: bool = False               # reading a position of the first round (for_position)
    between_sd: float = 0.0                 # VP: how far one search's mean margin of a node moves from seed to
                                            # seed beyond its sampling error (measured, win_se)
    open_sigma: float = 0.0                 # VP: the first round's scale (0: the sigma fitted in h)
    open_d: float = 0.0                     # VP: the first round's own optimism for the deciding seat (2 players)
    open_b: float = 0.0                     # VP: the first round's own level (every seat alike)
    open_p: float = 0.5                     # 2 players: the deciding seat's share in the first round's base
    open_m: float = 0.0                     # 2 players: its mean margin there, VP (0.5 and 0: the even part)

    def for_position(self, first_round: bool) -> "Model":
        """The model as it reads a position: in the first round (every seat's first turn) its figures are
        the mixture with the even distribution (open_scale; the module's docstring)."""
        return replace(self, first_round=bool(first_round)) if first_round != self.first_round else self

    @property
    def weight(self) -> float:
        """The weight of the model's own distribution in the shown figures (open_scale in the first round)."""
        return self.open_scale if self.first_round else 1.0

    def at(self, h: float) -> tuple[float, float, float, float]:
        """(b, k, d, sigma) at horizon h (in the first round, sigma is open_sigma when it is set, and b and d
        have open_b and open_d on top)."""
        h = min(max(float(h), 0.0), 1.0)
        b = self.b[0] + self.b[1] * h + (self.open_b if self.first_round else 0.0)
        k = max(MIN_K, self.k[0] + self.k[1] * h)
        d = self.d[0] + self.d[1] * h + (self.open_d if self.first_round else 0.0)
        if self.first_round and self.open_sigma > 0:
            sigma = self.open_sigma
        else:
            sigma = max(MIN_SIGMA, math.exp(self.log_sigma[0] + self.log_sigma[1] * h))
        return b, k, d, sigma

    def w_at(self, h: float) -> float:
        h = min(max(float(h), 0.0), 1.0)
        return self.w[0] + self.w[1] * h

    def core_tuple(self, h: float) -> tuple[float, float, float, float]:
        """(k, d, sigma, w): what the core's final choice halves by (cext/final_choice.pxi, _shown_share)."""
        _, k, d, sigma = self.at(h)
        return k, d, sigma, self.w_at(h)

    def to_dict(self) -> dict:
        return dict(eval=self.eval, players=self.players, seconds=self.seconds, b=list(self.b), k=list(self.k),
                    d=list(self.d), log_sigma=list(self.log_sigma), w=list(self.w),
                    open_scale=self.open_scale, between_sd=self.between_sd, open_sigma=self.open_sigma,
                    open_d=self.open_d, open_b=self.open_b, open_p=self.open_p, open_m=self.open_m)


@dataclass
class Outcome:
    """The predicted final result: every seat's win share and expected final VP, and the deciding seat's
    expected margin over the best other seat (all from one distribution)."""
    decider: int
    shares: list[float]
    vp: list[float]
    margin: float
    sigma: float
    slope: float = 0.0     # d share[decider] / d mu[decider] (for the standard error: the delta method)
    slope_q: float = 0.0   # d share[decider] / d q[decider], the decider's mean win value (0 without the term w)

    @property
    def win(self) -> float:
        return self.shares[self.decider]


def _lse(x: np.ndarray) -> float:
    top = float(np.max(x))
    return top + math.log(float(np.sum(np.exp(x - top))))


WIN_FLOOR = 0.001    # the win values' floor in the log term (as cext/final_choice.pxi)


def log_win(q) -> np.ndarray:
    """L: the log of every seat's mean win value, floored, less its mean over the seats."""
    lw = np.log(np.maximum(np.asarray(q, dtype=float), WIN_FLOOR))
    return lw - lw.mean()


def predict(mu, decider: int, h: float, model: Model, q=None) -> Outcome:
    """The final-result distribution for mean estimated final VPs `mu` (one per seat) and, when the model
    uses them, the seats' mean win values `q` (the evaluation's own win probabilities)."""
    mu = np.asarray(mu, dtype=float)
    b, k, d, sigma = model.at(h)
    mean = float(mu.mean())
    v = mean + b + k * (mu - mean)
    w = model.w_at(h)
    if w and q is not None:
        v = v + w * log_win(q)
    v[decider] -= d
    z = v / sigma
    e = np.exp(z - z.max())
    shares = e / e.sum()
    margin = float(v[decider] - sigma * _lse(np.delete(z, decider)))
    p = float(shares[decider])
    slope = k * p * (1.0 - p) / sigma
    # through L: d L[decider] / d q[decider] = (1 - 1/n) / q[decider] (the other seats' q held fixed)
    slope_q = 0.0
    if w and q is not None:
        slope_q = w * (1.0 - 1.0 / len(mu)) / max(float(q[decider]), WIN_FLOOR) * p * (1.0 - p) / sigma
    f, n = model.weight, len(mu)
    if f < 1.0:   # the first round: the mixture with its base (every seat at the mean location, or with 2
        # players the deciding seat's own share and mean margin there: open_p, open_m)
        if n == 2:
            base = np.full(2, 1.0 - model.open_p)
            base[decider] = model.open_p
            base_v = np.full(2, float(v.mean()) - model.open_m / 2.0)
            base_v[decider] = float(v.mean()) + model.open_m / 2.0
            base_margin = model.open_m
        else:
            base, base_v, base_margin = 1.0 / n, float(v.mean()), -sigma * math.log(n - 1)
        shares = f * shares + (1.0 - f) * base
        v = f * v + (1.0 - f) * base_v
        margin = f * margin + (1.0 - f) * base_margin
        slope, slope_q = f * slope, f * slope_q
    return Outcome(decider, [float(x) for x in shares], [float(x) for x in v], margin, sigma, slope, slope_q)


@dataclass
class NodeStats:
    """What the search backs up through one node for the model: the mean estimated final VP of every seat
    over all `visits` iterations, the deciding seat's mean margin and mean square margin (its spread gives
    the standard error), and over the `term` iterations that reached the game's end, their exact results
    (every seat's win rate and final VP, the deciding seat's margin)."""
    visits: int
    seat_vp: list[float]
    margin: float
    margin2: float
    term: int = 0
    term_win: list[float] = field(default_factory=list)
    term_vp: list[float] = field(default_factory=list)
    term_margin: float = 0.0
    seat_win: list[float] = field(default_factory=list)   # every seat's mean win value over all visits
    win2: float | None = None         # the deciding seat's mean square win value (None: not recorded)
    margin_win: float | None = None   # its mean margin x win value (None: not recorded)

    @classmethod
    def from_raw(cls, raw: dict) -> "NodeStats":
        """From a core answer's child or turn dict."""
        return cls(raw["visits"], list(raw["seat_vp"]), raw["margin"], raw["margin2"], raw["term"],
                   list(raw["term_win"]), list(raw["term_vp"]), raw["term_margin"], list(raw.get("seat_win", [])),
                   raw.get("win2"), raw.get("margin_win"))

    @staticmethod
    def pool(group: list["NodeStats"]) -> "NodeStats":
        """Several searches' statistics of one node (or of one turn reached in several orders) as one."""
        n, e = sum(s.visits for s in group), sum(s.term for s in group)
        seats = len(group[0].seat_vp)

        def mean(attr, weight, i=None):
            total = sum(weight(s) for s in group)
            if total <= 0:
                return 0.0
            return sum((getattr(s, attr) if i is None else (getattr(s, attr)[i] if getattr(s, attr) else 0.0))
                       * weight(s) for s in group) / total
        visits, term = (lambda s: s.visits), (lambda s: s.term)
        wins = [mean("seat_win", visits, i) for i in range(seats)] if all(s.seat_win for s in group) else []
        spread = all(s.win2 is not None and s.margin_win is not None for s in group)
        return NodeStats(n, [mean("seat_vp", visits, i) for i in range(seats)], mean("margin", visits),
                         mean("margin2", visits), e, [mean("term_win", term, i) for i in range(seats)],
                         [mean("term_vp", term, i) for i in range(seats)], mean("term_margin", term), wins,
                         mean("win2", visits) if spread else None, mean("margin_win", visits) if spread else None)


def predict_stats(stats: NodeStats, decider: int, h: float, model: Model,
                  searches: int = 1) -> tuple[Outcome, float]:
    """The shown figures of a node and their one standard error. The iterations that reached the game's end
    count with their exact results; the others with the model on their mean estimated VP: the distribution
    is the mixture of the two, weighted by how many iterations each holds. `searches`: how many independent
    searches the statistics pool (each brings its own seed-to-seed spread, Model.between_sd)."""
    n = len(stats.seat_vp)
    if stats.visits <= 0:
        out = predict([0.0] * n, decider, h, model)    # nothing backed up: no seat ahead of another
        return out, 0.5
    cut = stats.visits - stats.term
    wt, wc = stats.term / stats.visits, cut / stats.visits
    if cut > 0:
        mu, q = cut_means(stats)
        c = predict(mu, decider, h, model, q)
    else:
        c = Outcome(decider, [0.0] * n, [0.0] * n, 0.0, model.at(h)[3], 0.0)
    tw = stats.term_win if stats.term else [0.0] * n
    tv = stats.term_vp if stats.term else [0.0] * n
    out = Outcome(decider, [wt * tw[i] + wc * c.shares[i] for i in range(n)],
                  [wt * tv[i] + wc * c.vp[i] for i in range(n)], wt * stats.term_margin + wc * c.margin,
                  c.sigma, wc * c.slope, wc * c.slope_q)
    var_m, var_q, cov = spread_of_means(stats, decider)
    # one search's mean margin also moves from seed to seed beyond its sampling error: which lines the tree
    # settles on differs (measured, results/stability-focus/); the iterations that ended the game carry none
    if wc > 0:
        var_m += model.between_sd ** 2 / max(1, searches)
    return out, win_se(out, var_m, var_q, cov)


def cut_means(stats: NodeStats) -> tuple[list[float], list[float] | None]:
    """Every seat's mean estimated final VP and mean win value over the iterations that did not reach the
    game's end (the win values None when the statistics carry none)."""
    cut = stats.visits - stats.term
    n = len(stats.seat_vp)
    t = stats.term if stats.term else 0
    mu = [(stats.seat_vp[i] * stats.visits - (stats.term_vp[i] * t if t else 0.0)) / cut for i in range(n)]
    if len(stats.seat_win) != n:
        return mu, None
    q = [(stats.seat_win[i] * stats.visits - (stats.term_win[i] * t if t else 0.0)) / cut for i in range(n)]
    return mu, q


def spread_of_means(stats: NodeStats, decider: int) -> tuple[float, float, float]:
    """The sampling variance of the node's mean margin, of its mean win value for the deciding seat and
    their covariance (each over visits - 1: the spread of the backed-up values, as for any mean); the
    win value's two are 0 when the statistics did not record them."""
    n = stats.visits
    if n < 2:
        return float("inf"), 0.0, 0.0
    var_m = max(0.0, stats.margin2 - stats.margin ** 2) / (n - 1)
    if stats.win2 is None or stats.margin_win is None or len(stats.seat_win) <= decider:
        return var_m, 0.0, 0.0
    q = stats.seat_win[decider]
    var_q = max(0.0, stats.win2 - q * q) / (n - 1)
    cov = (stats.margin_win - stats.margin * q) / (n - 1)
    return var_m, var_q, cov


def win_se(outcome: Outcome, var_margin: float, var_q: float = 0.0, cov: float = 0.0) -> float:
    """The one standard error of a shown win share, by the delta method: the sampling variances of the
    node's mean margin and of the deciding seat's mean win value, and their covariance, through the share's
    slopes in each (Outcome.slope, slope_q). The margin stands for the deciding seat's estimated lead; the
    win value enters through the model's term w (3 and 5 players), and without it (slope_q 0) only the
    margin counts. var_margin holds the seed-to-seed part too (predict_stats, Model.between_sd), so the error
    reads as how far the figure would move in another search with another seed (measured in
    results/stability-focus/README.md)."""
    if not math.isfinite(var_margin):
        return 0.5
    a, c = outcome.slope, outcome.slope_q
    var = a * a * var_margin + c * c * var_q + 2.0 * a * c * cov
    return min(0.5, math.sqrt(max(0.0, var)))


def horizon(state, start_cards: int) -> float:
    """How much of the game is left: the share of the market cards still to be bought (0 once the game's
    end is triggered). `start_cards`: the cards to buy at the start for this board and player count."""
    if state.end_triggered or state.is_over:
        return 0.0
    return min(1.0, state.cards_left / max(1, start_cards))


_start_cards: dict[tuple, int] = {}


def first_round(state) -> bool:
    """Every seat is still in its first turn (the stage with a sigma of its own, Model.for_position)."""
    return state.turns < state.n_players and not state.is_over


def game_horizon(game) -> float:
    """horizon() of a Game, with the start's card count of its board and player count."""
    key = (game.board.name, game.n_players)
    if key not in _start_cards:
        from ..engine.game import Game
        _start_cards[key] = Game.new(game.board.name, game.n_players, seed=0).state.cards_left
    return horizon(game.state, _start_cards[key])


# ---------------------------------------------------------------- the file of fitted models

_cache: dict[tuple, tuple[list[Model], dict | None]] = {}


def _file_key(path: Path) -> tuple:
    """What a cached reading of a file is valid for: the file as it is now (a changed file is read again)."""
    try:
        st = path.stat()
        return str(path), st.st_mtime_ns, st.st_size
    except OSError:
        return str(path), None, None


def load(path: Path | str | None = None) -> list[Model]:
    """The models of a model file (the package's by default; [] without the file)."""
    return _read(path)[0]


def fitted_search(path: Path | str | None = None) -> dict | None:
    """The search the models of a model file were fitted on (its `search`: search_record's keys), or None
    for a file that does not record it (written before it was recorded) and without the file."""
    search = _read(path)[1]
    return None if search is None else dict(search)


def _read(path: Path | str | None) -> tuple[list[Model], dict | None]:
    """A model file's models and its `search` (None when absent), checked, cached while the file is unchanged."""
    path = MODELS if path is None else Path(path)
    key = _file_key(path)
    if key in _cache:
        return _cache[key]
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
        if info.get("format") != FORMAT:
            raise ValueError(f"format {info.get('format')!r}, not {FORMAT}")
        models = [Model(str(m["eval"]), int(m["players"]), float(m["seconds"]), _pair(m["b"]), _pair(m["k"]),
                        _pair(m["d"]), _pair(m["log_sigma"]), True, _pair(m.get("w", (0.0, 0.0))),
                        float(m.get("open_scale", 1.0)), False, float(m.get("between_sd", 0.0)),
                        float(m.get("open_sigma", 0.0)), float(m.get("open_d", 0.0)), float(m.get("open_b", 0.0)),
                        float(m.get("open_p", 0.5)), float(m.get("open_m", 0.0)))
                  for m in info["models"]]
        search = info.get("search")
    except FileNotFoundError:
        models, search = [], None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise OutcomeModelError(f"outcome models: {path} is not a model file: {e}") from None
    for m in models:
        if m.eval not in ("net", "hand") or not 2 <= m.players <= 5 or not (m.seconds >= 0):
            raise OutcomeModelError(f"outcome models: {path} has a model for eval {m.eval!r}, {m.players} players, "
                                    f"{m.seconds} s; valid: eval net or hand, 2-5 players, seconds >= 0")
        values = m.b + m.k + m.d + m.log_sigma + m.w + (m.open_scale, m.between_sd, m.open_sigma, m.open_d,
                                                                    m.open_b, m.open_p, m.open_m)
        if not all(math.isfinite(x) for x in values):
            raise OutcomeModelError(f"outcome models: {path} holds a coefficient that is not finite")
        if m.between_sd < 0:
            raise OutcomeModelError(f"outcome models: {path} has between_sd {m.between_sd:g}; valid: 0 or more")
        if m.open_sigma != 0 and not MIN_SIGMA <= m.open_sigma <= MAX_OPEN_SIGMA:
            raise OutcomeModelError(f"outcome models: {path} has open_sigma {m.open_sigma:g}; valid: 0 (the model's "
                                    f"sigma) or {MIN_SIGMA:g} to {MAX_OPEN_SIGMA:g}")
        if not 0.0 < m.open_p < 1.0:
            raise OutcomeModelError(f"outcome models: {path} has open_p {m.open_p:g}; valid: above 0 and below 1")
        if not 0.0 <= m.open_scale <= 1.0:
            raise OutcomeModelError(f"outcome models: {path} has open_scale {m.open_scale:g}; valid: 0 to 1")
    if search is not None and not isinstance(search, dict):
        raise OutcomeModelError(f"outcome models: {path} has a `search` that is not an object of search knobs")
    _cache[key] = models, search
    return _cache[key]


def _pair(x) -> tuple[float, float]:
    a, b = x
    return float(a), float(b)


def budget_seconds(seconds: float, iterations: int) -> float:
    """The CPU seconds of one search thread: its time budget, or its iterations at ITERATIONS_PER_SECOND
    (the smaller, with both). Threads merged side by side do not change it: they shrink the noise of the
    figures, not the bias the model corrects."""
    budgets = []
    if seconds and seconds > 0:
        budgets.append(seconds)
    if iterations and iterations > 0:
        budgets.append(iterations / ITERATIONS_PER_SECOND)
    return min(budgets) if budgets else 0.0


def find(eval_kind: str, players: int, seconds: float, path: Path | str | None = None) -> Model:
    """The model for this evaluation and player count fitted nearest to `seconds` (log scale; 0 is the
    position's own evaluation), or an unfitted default (k = 1, d = 0, sigma 8 VP) with fitted=False."""
    models = [m for m in load(path) if m.eval == eval_kind and m.players == players]
    want = seconds > 0
    models = [m for m in models if (m.seconds > 0) == want]
    if not models:
        return Model(eval_kind, players, seconds, fitted=False)
    if not want:
        return models[0]
    return min(models, key=lambda m: (abs(math.log(seconds / m.seconds)), m.seconds))


def note(model: Model, seconds: float) -> str | None:
    """A line for the player when the figures are not calibrated for this setting, else None."""
    what = "the value model" if model.eval == "net" else "the hand formula"
    if not model.fitted:
        return (f"the win % and VP here come from the final-result model with its default coefficients for "
                f"{what} ({model.players} players): no fit for this setting, so their calibration is not measured")
    if seconds > 0 and model.seconds > 0 and not 1 / BUDGET_FACTOR <= seconds / model.seconds <= BUDGET_FACTOR:
        return (f"the win % here comes from the final-result model fitted at {model.seconds:g} CPU s of search; "
                f"this search's budget (about {seconds:.3g} s per thread) is far from it, so its calibration is "
                f"not measured")
    return None


# ---------------------------------------------------------------- the search a model file was fitted on

# The SearchConfig fields the shown figures do not depend on, so a model file does not record them: the
# budget (iterations, seconds: the model is looked up by it, and `note` says when it is far from a fitted
# one), the threads (jobs: merged searches shrink the noise, not the bias the model corrects) and the seed
# (one draw of the same search). Every other knob changes what the search backs up through a turn, so the
# coefficients hold only for the values they were fitted with (a knob added later is compared too).
UNFITTED_KNOBS = ("iterations", "seconds", "jobs", "seed", "value_weights", "policy_weights")
# (the weights a search reads are named by their sha256 in a record, value_sha256 and policy_sha256, not by path)
# A knob whose default changed after it was added: a file that does not name it was fitted at the old one.
_DEFAULTS_BEFORE = {"c_puct_log": 0.0}    # "auto" since 2026-12-04 (5th session)
# What eval "auto" stood for in a record that does not say (`auto_eval`): the hand formula with 2 players until
# 2026-12-04 (8th session; search.AUTO_EVAL now), the value model with 3-5.
_AUTO_EVAL_BEFORE = {2: "hand", 3: "net", 4: "net", 5: "net"}


def search_knobs(config) -> dict:
    """The knobs of a SearchConfig the figures depend on (every field but UNFITTED_KNOBS), by name."""
    return {f.name: getattr(config, f.name) for f in fields(config) if f.name not in UNFITTED_KNOBS}


def recorded_knob(recorded: dict, name: str):
    """A knob of a recorded search (a model file's `search`, a data record's `config`): as recorded, or for a
    knob added after the record was made, the value the search had then (_DEFAULTS_BEFORE, else the default
    it was added with)."""
    from .search import SearchConfig
    if name in recorded:
        return recorded[name]
    return _DEFAULTS_BEFORE.get(name, next(f.default for f in fields(SearchConfig) if f.name == name))


def recorded_eval(recorded: dict, players: int) -> str:
    """The evaluation a recorded search used with `players` players: "auto" resolved by the meaning the record
    names (`auto_eval`, by player count), or for a record without one, the meaning it had then."""
    kind = recorded_knob(recorded, "eval")
    if kind != "auto":
        return kind
    meaning = recorded.get("auto_eval") or {}
    return meaning.get(str(players), _AUTO_EVAL_BEFORE.get(players, "net"))


def auto_eval_record() -> dict:
    """What eval "auto" stands for now, by player count, as a record keeps it (`auto_eval`)."""
    from .search import effective_eval
    return {str(n): effective_eval("auto", n) for n in range(2, 6)}


def complete_record(recorded: dict) -> dict:
    """A recorded search with every knob of today's SearchConfig (recorded_knob), so that records made before
    a knob was added compare equal to those made after it at the value it had."""
    from .search import SearchConfig
    knobs = {f.name: recorded_knob(recorded, f.name) for f in fields(SearchConfig) if f.name not in UNFITTED_KNOBS}
    return {**recorded, **knobs}


def search_record(config) -> dict:
    """The search as a model file (`search`) and scripts/outcome_data.py's records (`config`) keep it: its
    knobs (search_knobs), what eval "auto" stands for now (`auto_eval`: its meaning has changed once) and the
    sha256 of the learned weights installed now: the value model's always (the evaluation it resolves to
    depends on the player count), the policy prior's when the search reads it."""
    knobs = search_knobs(config)
    return dict(knobs, auto_eval=auto_eval_record(), value_sha256=current_sha("value", config.value_weights),
                policy_sha256=current_sha("policy", config.policy_weights) if config.reads_prior else None)


_shas: dict[tuple, str | None] = {}


def current_sha(kind: str, directory: str | Path = "") -> str | None:
    """The sha256 the installed weights' metadata records, kind "value" (value.META) or "policy" (policy.META),
    or with `directory` (a search's value_weights / policy_weights) that directory's; None when it cannot be
    read. Read again only when the file changes (as `load`)."""
    from . import policy, value, weight_slots
    meta = weight_slots.files_of(kind, directory)[1] if directory else Path(value.META if kind == "value" else policy.META)
    key = _file_key(meta)
    if key not in _shas:
        try:
            sha = json.loads(meta.read_text(encoding="utf-8")).get("sha256")
        except (OSError, ValueError, AttributeError):
            sha = None
        _shas[key] = sha if isinstance(sha, str) else None
    return _shas[key]


def search_note(config, players: int, path: Path | str | None = None) -> str | None:
    """A line for the player when `config` (a SearchConfig, for a game of `players` players) is not the search
    the model file was fitted on (fitted_search), naming what differs; None when it is, and for a file that
    does not record its search (nothing to check). The value model counts only where the search evaluates with
    it (effective_eval "net"), the policy prior only where the search reads it."""
    from .search import effective_eval
    fitted = fitted_search(path)
    if fitted is None:
        return None
    parts = []
    was, now = _knob_differences(fitted, config, players)
    if was:
        parts.append(f"the final-result model was fitted with {_and(was)}, this search has {_and(now)}")
    if effective_eval(config.eval, players) == "net" and _sha_differs(fitted, "value", config.value_weights):
        parts.append("a different value model")
    if config.reads_prior and _sha_differs(fitted, "policy", config.policy_weights):
        parts.append("a different policy prior")
    if not parts:
        return None
    return (f"the win % here is calibrated on another search ({'; '.join(parts)}), so its calibration on this "
            f"search is not measured")


def _knob_differences(fitted: dict, config, players: int) -> tuple[list[str], list[str]]:
    """The knobs where `config` differs from the fitted search, as 'name value' (fitted, this one). A knob the
    file does not name counts at its default when it was added (after the fit: that default is the search
    there was; _DEFAULTS_BEFORE); eval and c_puct_log count as they resolve for the player count (auto and
    net are one search; the file's "auto" as it meant then: recorded_eval)."""
    from .search import effective_c_puct_log, effective_eval
    was, now = [], []
    for f in fields(config):
        if f.name in UNFITTED_KNOBS:
            continue
        a, b = recorded_knob(fitted, f.name), getattr(config, f.name)
        if f.name == "eval":
            a, b = recorded_eval(fitted, players), effective_eval(b, players)
        elif f.name == "c_puct_log":
            a, b = effective_c_puct_log(a, players), effective_c_puct_log(b, players)
        if a != b:
            was.append(f"{f.name} {_word(a)}")
            now.append(f"{f.name} {_word(b)}")
    return was, now


def _sha_differs(fitted: dict, kind: str, directory: str = "") -> bool:
    """The fitted search read other `kind` weights than this search reads: those installed now, or the
    directory it names (not when the fitted search read none)."""
    sha = fitted.get(f"{kind}_sha256")
    return sha is not None and sha != current_sha(kind, directory)


def _word(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------- fitting

def fit(rows: list[dict], eval_kind: str, players: int, seconds: float) -> Model:
    """Fit a setting's coefficients on rows {"mu": [..], "decider": i, "h": h, "final": [..], "winner": j},
    optionally with "q" (every seat's mean win value: when every row has it, the model uses it, w), "wt"
    (the share of the node's iterations that reached the game's end) and "tw" (their win rate of the real
    winner): the shown share is then the mixture wt * tw + (1 - wt) * the model's; "first_round" (true in
    every seat's first turn: open_scale is fitted on those rows when there are any).

    b, k, d (and w) by least squares of every seat's final VP on mu (and L), each linear in h, with a weak
    pull towards b = 0, k = 1, d = 0, w = 0; then log sigma (linear in h) by maximum likelihood of the
    winner under the shown shares; then, over the first round's rows, open_sigma by their real final margins
    and open_scale by the winner's likelihood (_fit_first_round)."""
    use_q = all(r.get("q") is not None for r in rows)
    X, y = [], []
    for r in rows:
        mu = np.asarray(r["mu"], float)
        mean, h = mu.mean(), r["h"]
        lw = log_win(r["q"]) if use_q else None
        for i, f in enumerate(r["final"]):
            dec = 1.0 if i == r["decider"] else 0.0
            dev = mu[i] - mean
            x = [1.0, h, dev, h * dev, -dec, -h * dec]
            if use_q:
                x += [lw[i], h * lw[i]]
            X.append(x)
            y.append(f - mean)
    X, y = np.asarray(X), np.asarray(y)
    prior = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0] + ([0.0, 0.0] if use_q else []))
    lam = 1.0
    coef = np.linalg.solve(X.T @ X + lam * np.eye(len(prior)), X.T @ y + lam * prior)
    w = (coef[6], coef[7]) if use_q else (0.0, 0.0)
    located = Model(eval_kind, players, seconds, (coef[0], coef[1]), (coef[2], coef[3]), (coef[4], coef[5]),
                    (0.0, 0.0), True, w)
    loc = (np.array([predict(r["mu"], r["decider"], r["h"], located, r.get("q")).vp for r in rows]),
           np.array([r["winner"] for r in rows]), np.array([r["h"] for r in rows], float),
           np.array([r.get("wt", 0.0) for r in rows], float), np.array([r.get("tw", 0.0) for r in rows], float))
    model = Model(eval_kind, players, seconds, located.b, located.k, located.d, _fit_log_sigma(loc), True, w)
    first = [r for r in rows if r.get("first_round")]
    if not first:
        return model
    model = _fit_first_round(first, model)
    return replace(model, open_b=_fit_open_b(first, model))


def _winner_loglik(loc, s0: float, s1: float) -> float:
    """The winner's log likelihood under the shown shares, over rows (locations, winner, h, wt, tw); rows of
    one setting have one player count, so the sum is one array expression."""
    v, winner, h, wt, tw = loc
    sigma = np.maximum(MIN_SIGMA, np.exp(s0 + s1 * h))[:, None]
    z = v / sigma
    top = z.max(axis=1, keepdims=True)
    p = np.exp(z[np.arange(len(z)), winner] - (top[:, 0] + np.log(np.exp(z - top).sum(axis=1))))
    return float(np.log(np.maximum(1e-12, wt * tw + (1.0 - wt) * p)).sum())


def _fit_log_sigma(loc) -> tuple[float, float]:
    """(s0, s1) maximising the winner's log likelihood: a coarse grid, then coordinate refinement."""
    best = max(((s0, s1) for s0 in np.linspace(0.0, 4.5, 19) for s1 in np.linspace(-2.0, 2.0, 17)),
               key=lambda p: _winner_loglik(loc, *p))
    s0, s1 = best
    step = 0.125
    current = _winner_loglik(loc, s0, s1)
    while step > 1e-3:
        moved = False
        for ds0, ds1 in ((step, 0), (-step, 0), (0, step), (0, -step)):
            value = _winner_loglik(loc, s0 + ds0, s1 + ds1)
            if value > current:
                s0, s1, current = s0 + ds0, s1 + ds1, value
                moved = True
        if not moved:
            step /= 2
    return float(s0), float(s1)


OPEN_SCALE_MIN = 0.05   # the fitted first-round weight's floor: at 0 every turn would show the same share,
                        # and the list's order and the final pick would lose the search's judgement between
                        # turns; at 0.05 the shares stay within about a point of the even ones


def _first_round_loglik(rows: list[dict], model: Model) -> float:
    """The winner's log likelihood over the first round's rows under the model as it reads them."""
    m = replace(model, first_round=True)
    total = 0.0
    for r in rows:
        p = predict(r["mu"], r["decider"], r["h"], m, r.get("q")).shares[r["winner"]]
        wt = r.get("wt", 0.0)
        total += math.log(max(1e-12, wt * r.get("tw", 0.0) + (1.0 - wt) * p))
    return total


def _real_margin(row: dict) -> float:
    """The deciding seat's real final margin over the best other seat."""
    d = row["decider"]
    return row["final"][d] - max(v for i, v in enumerate(row["final"]) if i != d)


def _first_round_margin_gap(rows: list[dict], model: Model, real_mean: float) -> float:
    """The mean shown margin over the first round's rows less their mean real final margin (real_mean)."""
    m = replace(model, first_round=True)
    shown = sum(predict(r["mu"], r["decider"], r["h"], m, r.get("q")).margin for r in rows) / len(rows)
    return shown - real_mean


OPEN_P_GRID = np.arange(0.30, 0.70 + 1e-9, 0.0025)   # the first round's base share for the deciding seat


def _fit_open_2p(rows: list[dict], model: Model) -> Model:
    """With 2 players, the first round's weight f and its base for the deciding seat: the share open_p by the
    winner's likelihood over the first round's rows together with f (the shown share f p + (1 - f) open_p, p
    the model's own share of the deciding seat; the share of the iterations that ended the game at their exact
    rate, as everywhere), on grids (f 0.05, open_p 0.0025), vectorised over the rows; then the base's mean
    margin open_m so that the rows' shown margins average their real final margins. open_d stays 0."""
    base = replace(model, first_round=True, open_scale=1.0, open_d=0.0, open_p=0.5, open_m=0.0)
    p, margins, won, wt, tw = [], [], [], [], []
    for r in rows:
        out = predict(r["mu"], r["decider"], r["h"], base, r.get("q"))
        p.append(out.win)
        margins.append(out.margin)
        won.append(1.0 if r["winner"] == r["decider"] else 0.0)
        wt.append(r.get("wt", 0.0))
        tw.append(r.get("tw", 0.0))
    p, won, wt, tw = (np.asarray(x, float) for x in (p, won, wt, tw))
    best, best_ll = (1.0, 0.5), -math.inf
    for f in np.linspace(OPEN_SCALE_MIN, 1.0, 20):
        share = f * p[None, :] + (1.0 - f) * OPEN_P_GRID[:, None]           # (open_p, row)
        shown = np.where(won[None, :] > 0, share, 1.0 - share)
        ll = np.log(np.maximum(1e-12, wt * tw + (1.0 - wt) * shown)).sum(axis=1)
        i = int(np.argmax(ll))
        if ll[i] > best_ll:
            best, best_ll = (round(float(f), 2), round(float(OPEN_P_GRID[i]), 4)), float(ll[i])
    f, open_p = best
    real = float(np.mean([_real_margin(r) for r in rows]))
    open_m = 0.0 if f >= 1.0 else (real - f * float(np.mean(margins))) / (1.0 - f)
    return replace(model, open_scale=f, open_d=0.0, open_p=open_p, open_m=round(open_m, 3), open_sigma=0.0)


def _fit_open_b(rows: list[dict], model: Model) -> float:
    """The first round's own level: the mean over its rows of the seats' mean real final score less their mean
    shown expected VP (b is linear in h, and the horizon does not tell the first round from the next few)."""
    m = replace(model, first_round=True, open_b=0.0)
    gaps = [float(np.mean(r["final"])) - float(np.mean(predict(r["mu"], r["decider"], r["h"], m, r.get("q")).vp))
            for r in rows]
    return round(float(np.mean(gaps)), 2)


def _fit_first_round(rows: list[dict], model: Model) -> Model:
    """The first round's weight and scale. With 3 players or more: for each weight on a grid, the scale whose
    shown margins average the real ones (the mean margin falls as the scale grows: a bisection on log
    sigma), then the pair with the winner's highest likelihood. With 2 players the margin does not depend on
    the scale: the weight and the deciding seat's own optimism there (_fit_open_2p), at the sigma fitted in h."""
    if model.players < 3:
        return _fit_open_2p(rows, model)
    real_mean = sum(_real_margin(r) for r in rows) / len(rows)

    def scale_for(f: float) -> float:
        lo, hi = math.log(MIN_SIGMA), math.log(MAX_OPEN_SIGMA)

        def gap(x: float) -> float:
            return _first_round_margin_gap(rows, replace(model, open_scale=f, open_sigma=math.exp(x)), real_mean)
        if gap(hi) >= 0:
            return MAX_OPEN_SIGMA      # even the widest scale shows the margins too close: keep the widest
        if gap(lo) <= 0:
            return MIN_SIGMA
        for _ in range(24):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
        return round(math.exp(0.5 * (lo + hi)), 2)

    best, best_ll = model, -math.inf
    for f in np.linspace(OPEN_SCALE_MIN, 1.0, 20):
        f = round(float(f), 2)
        m = replace(model, open_scale=f, open_sigma=scale_for(f))
        ll = _first_round_loglik(rows, m)
        if ll > best_ll:
            best, best_ll = m, ll
    return best
