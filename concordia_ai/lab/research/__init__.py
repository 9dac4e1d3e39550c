"""Research on simulated games: what cards and seats are worth (the `concordia research` commands).

- `afford`: which market cards a seat can buy in its turn, asked of the rules engine;
- `policy`: the force/forbid wrapper around the treated seat's bot (controlled experiments);
- `godvalue`: the VP one more card of a god would score for a seat;
- `games`: configurations, the schedule of seeded games, playing them with purchase records, the
  resumable run folder (`research.json`, `games.jsonl`);
- `stats`: ratio estimates with 95 % intervals by a bootstrap over seed blocks;
- `tables`: the card, god, seat, marginal-VP and intervention tables from game records;
- `plots`: matplotlib figures (PNG); `report`: the report files of a run folder.
"""
