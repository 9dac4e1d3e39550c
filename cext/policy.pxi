# The policy prior: a probability for every legal sub-decision of a node, from features of the state and
# of each move (included into core.pyx after value.pxi; the search calls `policy_probs`).
#
# Shape (one weight set per player count, trained by scripts/train_policy.py on the search's visits):
#   x_i      = features of legal move i (policy_features below; PF_N floats, stack only)
#   z_i      = w_lin . x_i + v . tanh(W1 x_i + b1)     a linear part and an optional hidden layer (H >= 0)
#   P(i)     = softmax_i(z)                             over the legal moves of the node
# Features that are the same for every move of a node (the phase, the mover's coins) cancel in the
# softmax of the linear part; they act through the hidden layer, where they meet the move's features.
# Feature standardisation is folded into W1, b1 and w_lin when the weights are exported.

cdef enum:
    PF_N = 80           # features per (state, move)
    PN_H_MAX = 32       # hidden units at most
    PF_KIND = 0         # 16: action type one-hot (A_* - 1)
    PF_PHASE = 16       # 14: phase one-hot (PH_* - 1)
    PF_CARD = 30        # 9: card action of the card played, copied or bought (C_*)
    PF_GOD = 39         # 6: that card's god
    PF_GOOD = 45        # 5: the good traded, kept, built on, produced or of the specialist
    PF_LETTER = 50      # 4: the city letter (A..D) of a build or placement
    PF_MOVE = 54        # 26: scalars (see policy_features)

ctypedef struct PolicyNet:
    int32_t ready
    int32_t hidden
    float w_lin[PF_N]
    float w1t[PF_N][PN_H_MAX]    # W1 transposed: the inner loop runs over hidden units
    float b1[PN_H_MAX]
    float v[PN_H_MAX]

cdef PolicyNet g_policy[W_SLOTS][MAX_P + 1]      # indexed by slot (value.pxi's W_SLOTS), then player count

POLICY_FEATURES = PF_N
POLICY_HIDDEN_MAX = PN_H_MAX


cdef inline int owned_cards(const Player* pl, int hand_only) noexcept nogil:
    cdef int k, n = 0
    for k in range(g_rules.n_kinds):
        n += pl.hand[k]
        if not hand_only:
            n += pl.discard[k]
    return n


cdef inline int provinces_of(const Board* b, const Player* pl) noexcept nogil:
    cdef int i, n = 0
    for i in range(b.n_provinces):
        if pl.houses & b.province_mask[i]:
            n += 1
    return n


cdef inline int goods_of(const Player* pl) noexcept nogil:
    cdef int g, n = 0
    for g in range(NGOODS):
        n += pl.goods[g]
    return n


cdef inline int build_options(const State* s, const Board* b, int p) noexcept nogil:
    """Cities next to p's colonists where p has no house yet: what a later Architect could build."""
    cdef uint64_t m = build_mask(s, p) & ~s.pl[p].houses
    cdef int c, n = 0
    for c in range(b.n_cities):
        if (m >> c & 1) and c != b.start_city and not b.city_special[c]:
            n += 1
    return n


cdef inline float best_other_total(const int32_t* sc, int n, int p) noexcept nogil:
    cdef int q
    cdef float best = -1e9
    for q in range(n):
        if q != p and sc[q * NSCORE + 8] > best:
            best = sc[q * NSCORE + 8]
    return best


ctypedef struct PolicyBase:
    # what every move of a node is compared with: the node's state before the move, computed once
    int32_t sc[MAX_P * NSCORE]     # score_all
    float best_other
    int32_t hand
    int32_t owned
    int32_t provinces
    int32_t others_goods
    int32_t builds


cdef void policy_base(const State* s, PolicyBase* pb) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p = s.decider, q
    score_all(s, pb.sc)
    pb.best_other = best_other_total(pb.sc, s.n_players, p)
    pb.hand = owned_cards(&s.pl[p], 1)
    pb.owned = owned_cards(&s.pl[p], 0)
    pb.provinces = provinces_of(b, &s.pl[p])
    pb.builds = build_options(s, b, p)
    pb.others_goods = 0
    for q in range(s.n_players):
        if q != p:
            pb.others_goods += goods_of(&s.pl[q])


cdef void policy_features(const State* s, int32_t a, const PolicyBase* pb, float* x) noexcept nogil:
    """Features of move `a` for the player deciding at s (pb: policy_base(s)). What the move changes is
    read off a copy of s after the move (reveals left pending: nothing here depends on a card's draw)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef State t
    cdef int32_t sc1[MAX_P * NSCORE]
    cdef int p = s.decider, n = s.n_players, typ = a & 255, u = (a >> 8) & 255, w = (a >> 16) & 255
    cdef int kind = -1, good = -1, card = -1, q, og1 = 0
    cdef const int32_t* sc0 = pb.sc
    cdef const Player* p0
    cdef const Player* p1
    memset(x, 0, sizeof(float) * PF_N)
    if p < 0:
        return
    p0 = &s.pl[p]
    if 1 <= typ <= 16:
        x[PF_KIND + typ - 1] = 1.0
    if 1 <= s.phase <= 14:
        x[PF_PHASE + s.phase - 1] = 1.0
    # the card, good and city the move names
    if typ == A_PLAY or typ == A_COPY:
        kind = u
    elif typ == A_CARD and u < DISPLAY:
        card = s.display[u]
        if card >= 0:
            kind = g_rules.card_kind[card]
            x[PF_MOVE + 2] = <float>g_rules.card_deck[card] / 4.0
        x[PF_MOVE + 3] = <float>u / 6.0
    elif typ == A_SELL or typ == A_BUY:
        good = u
        x[PF_MOVE + 0] = <float>w / 5.0
    elif typ == A_KEEP:
        good = u
    elif typ == A_BUILD and u < MAX_CITIES:
        good = s.city_good[u]
        if b.city_letter[u] >= 0:
            x[PF_LETTER + b.city_letter[u]] = 1.0
        x[PF_MOVE + 4] = <float>s.city_houses[u] / 3.0
    elif typ == A_PRODUCE and u < MAX_PROV:
        good = s.marker_good[u]
    elif typ == A_MOVE and w < MAX_ROUTES:
        x[PF_MOVE + 1] = 1.0 if b.route_sea[w] else 0.0
    elif (typ == A_PLACE or typ == A_TRIB_COL) and u <= 1:
        x[PF_MOVE + 1] = <float>u
        if typ == A_PLACE and w < MAX_CITIES and b.city_letter[w] >= 0:
            x[PF_LETTER + b.city_letter[w]] = 1.0
    if 0 <= kind < g_rules.n_kinds:
        x[PF_CARD + g_rules.kind_action[kind]] = 1.0
        x[PF_GOD + g_rules.kind_god[kind]] = 1.0
        x[PF_MOVE + 5] = <float>g_rules.kind_coins[kind] / 5.0
        if good < 0:
            good = g_rules.kind_good[kind]
    if 0 <= good < NGOODS:
        x[PF_GOOD + good] = 1.0
    # what the move changes for the mover (and for the others: production pays them too)
    memcpy(&t, s, sizeof(State))
    t.order_known = 0
    t.chance_external = 1
    apply_action(&t, a)
    p1 = &t.pl[p]
    score_all(&t, sc1)
    for q in range(n):
        if q != p:
            og1 += goods_of(&t.pl[q])
    x[PF_MOVE + 6] = <float>(p1.coins - p0.coins) / 10.0
    x[PF_MOVE + 7] = <float>(goods_of(p1) - goods_of(p0)) / 5.0
    x[PF_MOVE + 8] = (wealth(p1) - wealth(p0)) / 20.0    # coins plus goods at price (heuristics.pxi; exact in float)
    x[PF_MOVE + 9] = <float>(p1.n_houses - p0.n_houses)
    x[PF_MOVE + 10] = <float>(sc1[p * NSCORE + 8] - sc0[p * NSCORE + 8]) / 10.0
    x[PF_MOVE + 11] = (best_other_total(sc1, n, p) - pb.best_other) / 10.0
    x[PF_MOVE + 12] = <float>(owned_cards(p1, 1) - pb.hand) / 3.0
    x[PF_MOVE + 13] = <float>(owned_cards(p1, 0) - pb.owned)
    x[PF_MOVE + 14] = <float>(on_board(p1) - on_board(p0))
    x[PF_MOVE + 15] = <float>(provinces_of(b, p1) - pb.provinces)
    x[PF_MOVE + 16] = <float>(og1 - pb.others_goods) / 5.0
    x[PF_MOVE + 17] = 1.0 if (t.phase == PH_OVER or t.decider != p or t.turns != s.turns) else 0.0
    x[PF_MOVE + 18] = <float>(build_options(&t, b, p) - pb.builds) / 3.0
    # the mover's state (the same for every move: it acts through the hidden layer)
    x[PF_MOVE + 19] = fclip(<float>s.turns / (30.0 * n), 0.0, 2.0)
    x[PF_MOVE + 20] = <float>p0.coins / 20.0
    x[PF_MOVE + 21] = <float>free_space(p0) / 12.0
    x[PF_MOVE + 22] = <float>p0.n_houses / 15.0
    x[PF_MOVE + 23] = 1.0 if s.end_player >= 0 else 0.0
    x[PF_MOVE + 24] = <float>n / 5.0
    x[PF_MOVE + 25] = (<float>sc0[p * NSCORE + 8] - pb.best_other) / 20.0


cdef inline float policy_logit(const PolicyNet* net, const float* x) noexcept nogil:
    cdef float h[PN_H_MAX]
    cdef float z = 0.0, xi
    cdef int i, j, hidden = net.hidden
    for i in range(PF_N):
        z += net.w_lin[i] * x[i]
    if hidden == 0:
        return z
    for j in range(hidden):
        h[j] = net.b1[j]
    for i in range(PF_N):
        xi = x[i]
        if xi == 0.0:          # most features are one-hot flags or changes that are zero
            continue
        for j in range(hidden):
            h[j] += net.w1t[i][j] * xi
    for j in range(hidden):
        z += net.v[j] * fast_tanh(h[j])
    return z


cdef void softmax_inplace(float* z, int n) noexcept nogil:
    """z[i] <- exp(z[i]) / sum_j exp(z[j]) (shifted by the largest for range): logits to probabilities."""
    cdef float top = -1e30, total = 0.0
    cdef int i
    for i in range(n):
        if z[i] > top:
            top = z[i]
    for i in range(n):
        z[i] = expf(z[i] - top)
        total += z[i]
    for i in range(n):
        z[i] /= total


cdef int policy_probs(const State* s, int slot, const int32_t* acts, int n, float* out) noexcept nogil:
    """out[i] = the prior of acts[i] among the n legal moves at s, by the weight set in `slot`. Returns 0 (and
    leaves out alone) when no weights are loaded there for this player count or no player decides."""
    cdef const PolicyNet* net
    cdef PolicyBase pb
    cdef float x[PF_N]
    cdef int i
    if s.n_players < 2 or s.n_players > MAX_P or s.decider < 0 or n <= 0 or slot < 0 or slot >= W_SLOTS:
        return 0
    net = &g_policy[slot][s.n_players]
    if not net.ready:
        return 0
    policy_base(s, &pb)
    for i in range(n):
        policy_features(s, acts[i], &pb, x)
        out[i] = policy_logit(net, x)
    softmax_inplace(out, n)
    return 1


cdef int policy_sample(const State* s, int slot, const int32_t* acts, int n, uint64_t* r) noexcept nogil:
    """An index into acts drawn from the prior (uniform where there is none): the rollout policy."""
    cdef float prob[MAX_ACTIONS]
    cdef float u, acc = 0.0
    cdef int i
    if not policy_probs(s, slot, acts, n, prob):
        return <int>rng_below(r, n)
    u = <float>(rng_next(r) >> 40) / 16777216.0
    for i in range(n - 1):
        acc += prob[i]
        if u < acc:
            return i
    return n - 1


cdef int policy_pick(const State* s, int slot, const int32_t* acts, int n, const int32_t* cand, int untried,
                     uint64_t* r, float* prior) noexcept nogil:
    """The untried move to expand: an index into cand (a subset of acts in the same order) drawn with
    probability proportional to its prior; `prior` gets that move's prior among all n legal moves."""
    cdef float prob[MAX_ACTIONS]
    cdef float cp[MAX_ACTIONS]
    cdef float u, acc = 0.0, total = 0.0
    cdef int i, j = 0
    if not policy_probs(s, slot, acts, n, prob):
        prior[0] = 0.0
        return <int>rng_below(r, untried)
    for i in range(n):
        if j < untried and acts[i] == cand[j]:
            cp[j] = prob[i]
            total += prob[i]
            j += 1
    u = total * (<float>(rng_next(r) >> 40) / 16777216.0)
    for j in range(untried - 1):
        acc += cp[j]
        if u < acc:
            prior[0] = cp[j]
            return j
    prior[0] = cp[untried - 1]
    return untried - 1


# ---------------------------------------------------------------- Python face

def policy_features_of(CoreState st not None):
    """The policy's input: a (legal moves, POLICY_FEATURES) float32 array, rows in legal_actions() order."""
    import numpy as np
    cdef int32_t acts[MAX_ACTIONS]
    cdef PolicyBase pb
    cdef int n, i
    _require_game(st)
    n = gen_legal(&st.s, acts)
    out = np.zeros((max(n, 0), PF_N), dtype=np.float32)
    if n <= 0 or st.s.decider < 0:
        return out
    cdef float[:, ::1] view = out
    policy_base(&st.s, &pb)
    for i in range(n):
        policy_features(&st.s, acts[i], &pb, &view[i, 0])
    return out


def policy_set_weights(int n_players, w_lin, w1, b1, v, int slot=0):
    """Load one player count's weights into the core's weight slot `slot` (shapes: w_lin (POLICY_FEATURES,), w1 (H,
    POLICY_FEATURES), b1 and v (H,), H from 0 (a linear scorer) to POLICY_HIDDEN_MAX)."""
    import numpy as np
    if not 2 <= n_players <= MAX_P:
        raise ValueError(f"policy weights: player count {n_players} is not 2..{MAX_P}")
    _check_slot(slot)
    wl = np.ascontiguousarray(w_lin, dtype=np.float32)
    a1 = np.ascontiguousarray(w1, dtype=np.float32)
    vb = np.ascontiguousarray(b1, dtype=np.float32)
    vv = np.ascontiguousarray(v, dtype=np.float32)
    if wl.shape != (PF_N,):
        raise ValueError(f"policy weights: w_lin has shape {wl.shape}, expected ({PF_N},)")
    if a1.ndim != 2 or a1.shape[1] != PF_N or not 0 <= a1.shape[0] <= PN_H_MAX:
        raise ValueError(f"policy weights: w1 has shape {a1.shape}, expected (0..{PN_H_MAX}, {PF_N})")
    cdef int hidden = a1.shape[0], j, i
    for name, arr in (("b1", vb), ("v", vv)):
        if arr.shape != (hidden,):
            raise ValueError(f"policy weights: {name} has shape {arr.shape}, expected ({hidden},)")
    for arr in (wl, a1, vb, vv):
        if not np.all(np.isfinite(arr)):
            raise ValueError("policy weights: not every weight is a finite number")
    cdef PolicyNet* net = &g_policy[slot][n_players]
    net.ready = 0
    net.hidden = hidden
    for i in range(PF_N):
        net.w_lin[i] = wl[i]
    for j in range(hidden):
        for i in range(PF_N):
            net.w1t[i][j] = a1[j, i]
        net.b1[j] = vb[j]
        net.v[j] = vv[j]
    net.ready = 1


def policy_clear(int slot=0):
    """Forget the policy weight sets of one slot (a search that asks for the policy there then refuses to run)."""
    cdef int n
    _check_slot(slot)
    for n in range(MAX_P + 1):
        g_policy[slot][n].ready = 0


def policy_ready(int n_players, int slot=0):
    return 0 <= slot < W_SLOTS and 2 <= n_players <= MAX_P and g_policy[slot][n_players].ready == 1


def policy_priors(CoreState st not None, int slot=0):
    """The prior of every legal move by the set in `slot`, in legal_actions() order."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef float prob[MAX_ACTIONS]
    cdef int n, i
    _require_game(st)
    if not policy_ready(st.s.n_players, slot):
        raise ValueError(f"no policy weights loaded for {st.s.n_players} players")
    if st.s.decider < 0:
        raise ValueError("no player decides in this position (game over or a card to reveal)")
    n = gen_legal(&st.s, acts)
    policy_probs(&st.s, slot, acts, n, prob)
    return [prob[i] for i in range(n)]


def bench_policy(CoreState st not None, int reps):
    """CPU seconds for `reps` evaluations of the prior over every legal move at st."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef float prob[MAX_ACTIONS]
    cdef int i, n
    cdef double acc = 0.0, t0, t1
    _require_game(st)
    if not policy_ready(st.s.n_players):
        raise ValueError(f"no policy weights loaded for {st.s.n_players} players")
    n = gen_legal(&st.s, acts)
    with nogil:
        t0 = clock()
        for i in range(reps):
            policy_probs(&st.s, 0, acts, n, prob)
            acc += prob[0]
        t1 = clock()
    return (t1 - t0) / CLOCKS_PER_SEC, n


def greedy_values(CoreState st not None):
    """The greedy bot's one-step value of every legal move (action_value in heuristics.pxi), in legal_actions()
    order: the heuristic ordering that the learned prior is compared with."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef int n, i
    _require_game(st)
    if st.s.decider < 0:
        raise ValueError("no player decides in this position (game over or a card to reveal)")
    n = gen_legal(&st.s, acts)
    return [action_value(&st.s, acts[i], st.s.decider) for i in range(n)]
