"""One ISMCTS search of N iterations at the 4-player Imperium opening (seed 1), for callgrind:
    python results/core-split/cg_search.py ROLLOUT N      (ROLLOUT: random or greedy)"""
import sys

from concordia_ai import core
from concordia_ai.ai.search import SearchConfig
from concordia_ai.engine.game import Game

g = Game.new("imperium", 4, seed=1)
kind = sys.argv[1]
cfg = dict(SearchConfig(iterations=int(sys.argv[2]), seed=1, rollout=kind).core_dict(players=4), turns=32)
r = core.search(g.state, cfg)
print(kind, r["iterations"], r["nodes"])
