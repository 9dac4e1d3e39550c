# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- benchmarks

def bench_random_games(int board_id, int n_players, int games, seed):
    """Full uniformly random games in C. Returns (steps, turns, cpu seconds)."""
    cdef State s
    cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef long long steps = 0, turns = 0
    cdef int g, n
    cdef double t0, t1
    _require_board(board_id)
    if not 2 <= n_players <= MAX_P:
        raise ValueError("bad player count")
    with nogil:
        t0 = clock()
        for g in range(games):
            init_state(&s, board_id, n_players, rng_next(&r), 0)
            n = random_playout(&s, &r, 1000000)
            steps += n
            turns += s.turns
        t1 = clock()
    return steps, turns, (t1 - t0) / CLOCKS_PER_SEC


def bench_copy(int board_id, int n_players, int reps):
    """CPU seconds for `reps` state copies and for `reps` legal-move generations at the opening."""
    cdef State s, t
    cdef int32_t buf[MAX_ACTIONS]
    cdef int i
    cdef long long acc = 0
    cdef double t0, t1, t2
    _require_board(board_id)
    if not 2 <= n_players <= MAX_P:
        raise ValueError("bad player count")
    init_state(&s, board_id, n_players, 1, 0)
    with nogil:
        t0 = clock()
        for i in range(reps):
            s.turns = i
            memcpy(&t, &s, sizeof(State))
            acc += t.turns + t.pl[i % MAX_P].coins
        t1 = clock()
        for i in range(reps):
            acc += gen_legal(&s, buf)
        t2 = clock()
    return (t1 - t0) / CLOCKS_PER_SEC, (t2 - t1) / CLOCKS_PER_SEC, acc, sizeof(State)
