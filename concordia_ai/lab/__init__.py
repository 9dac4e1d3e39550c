"""Long jobs: the runner (a local pool or Dask), tournaments, ratings and research on simulated games.
Imports table, ai, engine and io."""
