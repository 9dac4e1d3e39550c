import json, sys, time
from concordia_ai.ai.search import SearchConfig, _run
from concordia_ai.engine.game import Game
out = {}
for name, board, n, kw in (("4p imperium opening, default", "imperium", 4, {}), ("2p italia opening, hand", "italia", 2, {"eval": "hand"})):
    g = Game.new(board, n, seed=1)
    rates = []
    for rep in range(3):
        d = SearchConfig(iterations=30000, seed=rep, **kw).core_dict(players=n)
        r = _run(g.state, d, turns=0)
        rates.append(r["iterations"] / r["seconds"])
    out[name] = sorted(rates)[1]
print(json.dumps(out))
