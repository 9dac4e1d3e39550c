# Flat Monte Carlo: the budget spread evenly over the root's legal moves, each judged by its rollouts.

cdef void flat_mc(const State* root, const SearchConfig* cfg, int32_t* acts, int n, double* sums, int32_t* counts,
                  int32_t* done_iterations) noexcept nogil:
    """Flat Monte Carlo: the budget spread evenly over the legal moves, each judged by its rollouts."""
    cdef State st
    cdef uint64_t r = seed_mix(cfg.seed)
    cdef float rew[MAX_P]
    cdef float val[MAX_P]
    cdef float winp[MAX_P]
    cdef int it = 0, i, terminal, p = root.decider
    cdef double t0 = cc_thread_seconds()
    while True:
        if cfg.iterations > 0 and it >= cfg.iterations:
            break
        if cfg.seconds > 0 and (it & 15) == 0 and cc_thread_seconds() - t0 >= cfg.seconds:
            break
        i = it % n
        memcpy(&st, root, sizeof(State))
        st.order_known = 0
        st.chance_external = 0
        st.rng = rng_next(&r)
        apply_action(&st, acts[i])
        terminal = rollout(&st, cfg, &r)
        reward_vector(&st, cfg, val, winp, rew, terminal)
        sums[i] += rew[p]
        counts[i] += 1
        it += 1
    done_iterations[0] = it


def flat_monte_carlo(CoreState root not None, dict config not None):
    """Mean reward of each legal move for the player deciding at root: [(action, visits, mean)], iterations."""
    cdef SearchConfig cfg
    cdef int32_t acts[MAX_ACTIONS]
    cdef double sums[MAX_ACTIONS]
    cdef int32_t counts[MAX_ACTIONS]
    cdef int32_t iters = 0
    cdef int n, i
    _require_game(root)
    if root.s.phase == PH_OVER or root.s.decider < 0:
        raise ValueError("no player decides in this position (game over or a card to reveal)")
    fill_config(&cfg, config, root.s.n_players, False)
    n = gen_legal(&root.s, acts)
    memset(sums, 0, sizeof(sums))
    memset(counts, 0, sizeof(counts))
    with nogil:
        flat_mc(&root.s, &cfg, acts, n, sums, counts, &iters)
    return [(acts[i], counts[i], sums[i] / max(1, counts[i])) for i in range(n)], iters
