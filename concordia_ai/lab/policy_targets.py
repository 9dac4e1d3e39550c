"""The policy prior's training targets, computed from one root's statistics (the children's visits and mean
rewards that the search returns), and how sharp a set of targets is.

Three kinds of target per decision, all over the node's legal moves:

* `visits`: the root's visit distribution (what generation 1 was trained on; flat at 400 iterations).
* `pruned`: the visits less those that exploration forced (KataGo's policy target pruning). For each child
  but the most visited one, visits are taken away while its selection score with fewer visits stays below
  the best child's score; a child left with a single visit is dropped. The selection score is the core's
  (Selection: today's UCB with the policy's PUCT term, or the PUCT selection).
* `improved`: Gumbel AlphaZero's improved policy, softmax(log prior + sigma(completed Q)), with
  sigma(q) = (c_visit + max visits) c_scale q. The rewards are already in [0, 1], so Q is not rescaled. A
  move the search never visited is completed with the mixed value v_mix of the paper.

    >>> pruned_visits(np.array([100, 50, 10]), np.array([0.6, 0.5, 0.3]), 160, Selection("ucb", c=0.7))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TARGETS = ("visits", "pruned", "improved")
C_VISIT = 50.0        # Gumbel AlphaZero's sigma: (c_visit + max_b N(b)) * c_scale * q
C_SCALE = 1.0


@dataclass(frozen=True)
class Selection:
    """The root's selection score, as the core computes it (cext/ismcts.pxi):
    "ucb" (today's): Q + c sqrt(ln N / n) + weight P sqrt(N) / (1 + n), the last term with policy > 0 only;
    "puct" (SearchConfig.select = "puct"): Q + c_puct(N) P sqrt(N) / (1 + n), where c_puct(N) = c_puct +
    c_puct_log ln((N + c_puct_base) / c_puct_base) grows with the node's visits (cext/puct.pxi; constant
    with c_puct_log = 0).
    N is the availability count of a root child: every root visit sees the root's legal moves."""
    kind: str = "ucb"
    c: float = 0.7
    weight: float = 0.0
    c_puct: float = 1.0
    c_puct_log: float = 0.0
    c_puct_base: float = 500.0

    @classmethod
    def of(cls, config, players: int) -> "Selection":
        """The selection of a SearchConfig in a game of `players` players (one made before `select` existed is
        "ucb"; c_puct_log "auto" resolves by the player count)."""
        from ..ai.search import effective_c_puct_log
        return cls(getattr(config, "select", "ucb"), config.c, config.policy, getattr(config, "c_puct", 1.0),
                   effective_c_puct_log(getattr(config, "c_puct_log", 0.0), players),
                   getattr(config, "c_puct_base", 500.0))

    def c_puct_at(self, parent_visits: float) -> float:
        """The PUCT weight at a node visited parent_visits times."""
        if self.c_puct_log <= 0:
            return self.c_puct
        return self.c_puct + self.c_puct_log * np.log((parent_visits + self.c_puct_base) / self.c_puct_base)

    def needs_prior(self) -> bool:
        return self.kind == "puct" or self.weight > 0


def selection_scores(means: np.ndarray, visits: np.ndarray, parent_visits: float, sel: Selection,
                     prior: np.ndarray | None = None) -> np.ndarray:
    """The selection score of children with these means and visit counts (visits > 0) at a parent visited
    parent_visits times."""
    visits = np.asarray(visits, np.float64)
    means = np.asarray(means, np.float64)
    p = np.zeros_like(visits) if prior is None else np.asarray(prior, np.float64)
    puct = p * np.sqrt(parent_visits) / (1.0 + visits)
    if sel.kind == "puct":
        return means + sel.c_puct_at(parent_visits) * puct
    return means + sel.c * np.sqrt(np.log(parent_visits) / visits) + (sel.weight * puct if sel.weight > 0 else 0.0)


def pruned_visits(visits: np.ndarray, means: np.ndarray, parent_visits: float, sel: Selection,
                  prior: np.ndarray | None = None) -> np.ndarray:
    """The visits left after taking away those that exploration forced (KataGo's policy target pruning):
    a child other than the most visited keeps the fewest visits m at which its score is still below the
    best child's score (the score falls as visits grow, so with fewer than m the search would have
    preferred it); a child pruned down to one visit is dropped. Visits of 0 stay 0."""
    visits = np.asarray(visits, np.int64)
    means = np.asarray(means, np.float64)
    out = visits.astype(np.float64).copy()
    if len(visits) < 2 or visits.max() <= 0:
        return out
    # the best: most visited, then the best mean
    best = int(np.lexsort((-means, -visits))[0])
    p = np.zeros(len(visits)) if prior is None else np.asarray(prior, np.float64)
    bar = selection_scores(means[best:best + 1], visits[best:best + 1], parent_visits, sel, p[best:best + 1])[0]
    for i in np.nonzero(visits > 0)[0]:
        if i == best:
            continue
        m = np.arange(1, visits[i] + 1)
        scores = selection_scores(np.full(len(m), means[i]), m, parent_visits, sel, np.full(len(m), p[i]))
        below = np.nonzero(scores < bar)[0]
        if len(below) == 0:
            continue                       # even with all its visits it scores above the best: all earned
        keep = int(m[below[0]])
        if keep < visits[i]:
            out[i] = 0.0 if keep == 1 else float(keep)
    return out


def softmax(z: np.ndarray) -> np.ndarray:
    z = np.asarray(z, np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


def improved_policy(visits: np.ndarray, means: np.ndarray, prior: np.ndarray | None = None,
                    c_visit: float = C_VISIT, c_scale: float = C_SCALE) -> np.ndarray:
    """Gumbel AlphaZero's improved policy softmax(log prior + sigma(completed Q)) (a uniform prior when
    None). Completed Q: a visited move's mean; an unvisited move's v_mix, the root value estimate mixed with
    the prior-weighted mean of the visited moves (the paper's eq. 33, the root value taken as the visit-
    weighted mean of the children)."""
    visits = np.asarray(visits, np.float64)
    means = np.asarray(means, np.float64)
    n = len(visits)
    pi = np.full(n, 1.0 / n) if prior is None else np.asarray(prior, np.float64) / np.sum(prior)
    logits = np.log(np.maximum(pi, 1e-30))
    seen = visits > 0
    total = visits.sum()
    if total <= 0:
        return softmax(logits)
    v_hat = float(visits @ means / total)
    v_mix = (v_hat + total / pi[seen].sum() * float(pi[seen] @ means[seen])) / (1.0 + total)
    completed = np.where(seen, means, v_mix)
    return softmax(logits + (c_visit + visits.max()) * c_scale * completed)


# ---------------------------------------------------------------- how sharp the targets are

def entropy_report(target: np.ndarray, first: np.ndarray, size: np.ndarray) -> dict:
    """Mean over decisions of the target's entropy and of its KL divergence from the uniform distribution
    over the decision's legal moves (KL = ln n - entropy), both in nats; `target` holds one weight per row
    (normalised here per decision), decisions are rows first[k] .. first[k] + size[k] - 1."""
    target = np.asarray(target, np.float64)
    first, size = np.asarray(first, np.int64), np.asarray(size, np.int64)
    keep = np.add.reduceat(target, first) > 0 if len(first) else np.zeros(0, bool)
    entropies, kls = [], []
    for f, n in zip(first[keep], size[keep]):
        p = target[f:f + n] / target[f:f + n].sum()
        nz = p[p > 0]
        h = float(-(nz * np.log(nz)).sum())
        entropies.append(h)
        kls.append(float(np.log(n)) - h)
    return dict(decisions=len(entropies), mean_entropy=round(float(np.mean(entropies)), 4) if entropies else None,
                mean_kl_uniform=round(float(np.mean(kls)), 4) if kls else None,
                mean_uniform_entropy=round(float(np.mean(np.log(size[keep]))), 4) if entropies else None)
