# The hand evaluation and the heuristic players: evaluate, reward_vector, the greedy and plan (whole-turn) choices.

cdef float wealth(const Player* pl) noexcept nogil:
    cdef int g
    cdef float v = pl.coins
    for g in range(NGOODS):
        v += pl.goods[g] * g_rules.price[g]
    return v


cdef void evaluate(const State* s, float* out) noexcept nogil:
    """A cheap estimate of each player's final score: VP if the game ended now, plus what the
    position can still turn into (money and goods, houses that keep producing, colonists that move)."""
    cdef int32_t sc[MAX_P * NSCORE]
    cdef int p
    cdef const Player* pl
    cdef float late
    score_all(s, sc)
    # the further the game, the more the present score counts and the less the potential
    late = 1.0 if s.end_player >= 0 else (<float>s.turns) / (<float>(30 * s.n_players))
    if late > 1.0:
        late = 1.0
    for p in range(s.n_players):
        pl = &s.pl[p]
        out[p] = sc[p * NSCORE + 8] + (1.0 - late) * (0.08 * wealth(pl) + 1.2 * pl.n_houses + 0.8 * on_board(pl))


cdef void reward_vector(const State* s, const SearchConfig* cfg, float* value, float* winp, float* reward,
                        int terminal, const float* leaf_value=NULL, const float* leaf_winp=NULL,
                        float leaf_w=0.0) noexcept nogil:
    """Rewards in [0, 1] for every seat, from final scores (terminal) or the evaluation (cut-off).
    `value` gets each seat's (expected) final VP, `winp` its (estimated) probability of winning. With
    leaf_w > 0 both are mixed with the estimate made where the rollout began (leaf_value, leaf_winp):
    (1 - leaf_w) * here + leaf_w * there, before the rewards are made from them (the rank reward keeps the
    order of the unmixed values)."""
    cdef int32_t sc[MAX_P * NSCORE]
    cdef int8_t order[MAX_P]
    cdef int n = s.n_players, p, q, rank, have_p = 0
    cdef float best_other, margin, rk
    if terminal:
        score_all(s, sc)
        ranking(s, sc, order)
        for p in range(n):
            value[p] = sc[p * NSCORE + 8]
    else:
        if cfg.eval_kind == EVAL_NET:
            have_p = value_eval(s, cfg.value_slot, winp, value)
        if not have_p:
            evaluate(s, value)
        # rank by value, ties by the Praefectus Magnus order as at the end
        for p in range(n):
            order[p] = p
        for p in range(1, n):
            q = p
            while q > 0 and (value[order[q]] > value[order[q - 1]] or
                             (value[order[q]] == value[order[q - 1]] and
                              (s.pm_holder - order[q] + n) % n < (s.pm_holder - order[q - 1] + n) % n)):
                rank = order[q]; order[q] = order[q - 1]; order[q - 1] = rank
                q -= 1
    if not have_p:
        # the leader by (estimated) final VP wins: 0/1 (exact at the end of the game)
        for rank in range(n):
            winp[order[rank]] = 1.0 if rank == 0 else 0.0
    if leaf_w > 0.0:
        for p in range(n):
            value[p] = (1.0 - leaf_w) * value[p] + leaf_w * leaf_value[p]
            winp[p] = (1.0 - leaf_w) * winp[p] + leaf_w * leaf_winp[p]
    for rank in range(n):
        p = order[rank]
        best_other = -1e9
        for q in range(n):
            if q != p and value[q] > best_other:
                best_other = value[q]
        margin = 0.5 + (value[p] - best_other) / (2.0 * cfg.margin_scale)
        if margin < 0.0:
            margin = 0.0
        elif margin > 1.0:
            margin = 1.0
        rk = (<float>(n - 1 - rank)) / (<float>(n - 1))
        if cfg.reward == RW_WIN:
            reward[p] = winp[p]
        elif cfg.reward == RW_RANK:
            reward[p] = rk
        elif cfg.reward == RW_MARGIN:
            reward[p] = margin
        else:
            reward[p] = cfg.mix * winp[p] + (1.0 - cfg.mix) * margin


cdef float action_value(State* s, int32_t a, int p) noexcept nogil:
    """One-step lookahead: the evaluation of p minus a share of the best opponent after action a."""
    cdef State t
    cdef float v[MAX_P]
    cdef float best = -1e9
    cdef int q
    memcpy(&t, s, sizeof(State))
    t.chance_external = 0
    t.order_known = 0
    apply_action(&t, a)
    evaluate(&t, v)
    for q in range(t.n_players):
        if q != p and v[q] > best:
            best = v[q]
    return v[p] - 0.3 * best


cdef int greedy_index(State* s, int32_t* acts, int n, uint64_t* r) noexcept nogil:
    cdef int i, best = 0, ties = 0, p = s.decider
    cdef float v, bv = -1e18
    if p < 0:
        return <int>rng_below(r, n)
    for i in range(n):
        v = action_value(s, acts[i], p)
        if v > bv + 1e-6:
            bv = v
            best = i
            ties = 1
        elif v > bv - 1e-6:
            ties += 1
            if rng_below(r, ties) == 0:
                best = i
    return best


cdef float turn_value(State* s, int32_t a, int p, uint64_t* r) noexcept nogil:
    """Apply a, finish p's turn greedily, evaluate: a plan-level look at one whole turn."""
    cdef State t
    cdef int32_t acts[MAX_ACTIONS]
    cdef float v[MAX_P]
    cdef float best = -1e9
    cdef int q, n, steps = 0, turn = s.turns
    memcpy(&t, s, sizeof(State))
    t.chance_external = 0
    t.order_known = 0
    apply_action(&t, a)
    while t.phase != PH_OVER and t.turns == turn and t.decider == p and steps < 64:
        n = gen_legal(&t, acts)
        if n <= 0:
            break
        apply_action(&t, acts[greedy_index(&t, acts, n, r)])
        steps += 1
    evaluate(&t, v)
    for q in range(t.n_players):
        if q != p and v[q] > best:
            best = v[q]
    return v[p] - 0.3 * best


cdef int plan_index(State* s, int32_t* acts, int n, uint64_t* r) noexcept nogil:
    cdef int i, best = 0, ties = 0, p = s.decider
    cdef float v, bv = -1e18
    if p < 0:
        return <int>rng_below(r, n)
    for i in range(n):
        v = turn_value(s, acts[i], p, r)
        if v > bv + 1e-6:
            bv = v
            best = i
            ties = 1
        elif v > bv - 1e-6:
            ties += 1
            if rng_below(r, ties) == 0:
                best = i
    return best


def choose_greedy(CoreState st not None, seed, bint plan=False):
    """The greedy bot's move (one-step lookahead), or with plan=True the heuristic bot's (whole-turn lookahead)."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef int n, i
    _require_game(st)
    n = gen_legal(&st.s, acts)
    if n <= 0:
        raise ValueError("no legal move")
    if st.s.decider < 0:
        return acts[rng_below(&r, n)]
    with nogil:
        i = plan_index(&st.s, acts, n, &r) if plan else greedy_index(&st.s, acts, n, &r)
    return acts[i]


def evaluate_state(CoreState st not None):
    """The heuristic's estimate of every player's final score."""
    cdef float v[MAX_P]
    _require_game(st)
    evaluate(&st.s, v)
    return [v[p] for p in range(st.s.n_players)]
