import sys
from concordia_ai.engine.game import Game
from concordia_ai.ai.search import SearchConfig
from concordia_ai import core
from concordia_ai.ai import value
value.ensure_loaded()
g = Game.new("imperium", 4, seed=1)
kind = sys.argv[1]
cfg = dict(SearchConfig(iterations=int(sys.argv[2]), seed=1, rollout=kind).core_dict(players=4))
r = core.search(g.state, cfg)
print(kind, r["iterations"], r["nodes"])
