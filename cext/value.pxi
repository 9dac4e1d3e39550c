# The value model: a state's features per seat and a small network that turns them into each seat's
# probability of winning and expected final VP (included into core.pyx; the search calls `value_eval`).
#
# Shape (one weight set per player count, trained by scripts/train_value.py):
#   x_p   = features of seat p (value_features below; the same layout for every seat): the first VF_V1 of
#           them (the first layout), or all VF_N (the second adds what the seat's economy and the display
#           offer it); each weight set says which, so sets of the first layout play as they always did
#   h_p   = tanh(W1 x_p + b1)                      hidden units shared by both heads (fast_tanh)
#   s_p   = w_win . h_p                            a seat's strength;  P(p wins) = softmax_p(s)
#   VP_p  = vp_scale * (w_vp . h_p + b_vp)          expected final VP
# The softmax over seats makes the win probabilities sum to 1 whatever the weights. Feature
# standardisation is folded into W1 and b1 when the weights are exported, so the forward pass is only
# these few dot products: no allocation, no Python.
from libc.math cimport expf

cdef enum:
    VF_V1 = 60          # features per seat of the first layout
    VF_N = 71           # features per seat of the second (the first's, then 60-70)
    VH_MAX = 64         # hidden units at most
    W_SLOTS = 4         # weight sets held at once, value and policy each: slot 0 the shipped (or held) set, 1-3
                        # the directories searches name (SearchConfig.value_weights / policy_weights)

ctypedef struct ValueNet:
    int32_t ready
    int32_t hidden
    int32_t n_in                 # the features it reads: VF_V1 or VF_N
    float w1t[VF_N][VH_MAX]      # W1 transposed: the inner loop runs over hidden units and vectorises
    float b1[VH_MAX]
    float w_win[VH_MAX]
    float w_vp[VH_MAX]
    float b_vp
    float vp_scale

cdef ValueNet g_value[W_SLOTS][MAX_P + 1]      # indexed by slot, then player count (2..5)

VALUE_FEATURES = VF_N
VALUE_FEATURE_LAYOUTS = (VF_V1, VF_N)    # the feature counts a weight set may have
VALUE_HIDDEN_MAX = VH_MAX
WEIGHT_SLOTS = W_SLOTS


cdef inline float fast_tanh(float x) noexcept nogil:
    """tanh by a rational (Lambert continued fraction) approximation, within 1e-4 of tanh everywhere:
    plain arithmetic that the compiler vectorises, where libm's tanhf is a call per unit."""
    cdef float x2
    if x > 4.97:
        x = 4.97
    elif x < -4.97:
        x = -4.97
    x2 = x * x
    x = x * (135135.0 + x2 * (17325.0 + x2 * (378.0 + x2))) / (135135.0 + x2 * (62370.0 + x2 * (3150.0 + x2 * 28.0)))
    return 1.0 if x > 1.0 else (-1.0 if x < -1.0 else x)


cdef inline float fclip(float x, float lo, float hi) noexcept nogil:
    return lo if x < lo else (hi if x > hi else x)


cdef void value_features(const State* s, const int32_t* sc, int p, float* x, int n_in) noexcept nogil:
    """Seat p's first n_in features (VF_V1 or VF_N). `sc` is score_all(s). Scales keep every feature near
    0..1."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef const Player* pl = &s.pl[p]
    cdef int n = s.n_players, q, k, g, i, cnt, hand_n = 0, disc_n = 0, provinces = 0, max_h = 0, all_h = 0
    cdef float best_other = -1e9, wealth_p, wealth_others = 0.0, best_houses = 0.0, w
    cdef int gods[6]
    cdef int acts[9]
    memset(x, 0, sizeof(float) * VF_N)
    memset(gods, 0, sizeof(gods))
    memset(acts, 0, sizeof(acts))
    for q in range(n):
        all_h += s.pl[q].n_houses
        if s.pl[q].n_houses > max_h:
            max_h = s.pl[q].n_houses
    # the game's phase (the same for every seat)
    x[0] = fclip(<float>s.turns / (30.0 * n), 0.0, 2.0)
    x[1] = <float>s.stack_len / <float>(g_rules.n_market if g_rules.n_market > 0 else 1)
    x[2] = <float>display_count(s) / DISPLAY
    x[3] = 1.0 if s.end_player >= 0 else 0.0
    x[4] = <float>max_h / 15.0
    x[5] = <float>all_h / (15.0 * n)
    # where the seat sits in the turn order: 0 = it is this seat's turn
    x[6 + (p - s.turn_player + n) % n] = 1.0
    x[11] = 1.0 if s.pm_holder == p else 0.0
    x[12] = 1.0 if s.end_player == p else 0.0
    # the score by god if the game ended now
    for k in range(8):
        x[13 + k] = <float>sc[p * NSCORE + k] / 20.0
    x[21] = <float>sc[p * NSCORE + 8] / 100.0
    x[22] = <float>pl.coins / 20.0
    for g in range(NGOODS):
        x[23 + g] = <float>pl.goods[g] / 5.0
    wealth_p = pl.coins
    for g in range(NGOODS):
        wealth_p += pl.goods[g] * g_rules.price[g]
    x[28] = wealth_p / 50.0
    x[29] = <float>pl.n_houses / 15.0
    for g in range(NGOODS):
        x[30 + g] = <float>pl.houses_by_good[g] / 5.0
    for i in range(b.n_provinces):
        if pl.houses & b.province_mask[i]:
            provinces += 1
    x[35] = <float>provinces / <float>(b.n_provinces if b.n_provinces > 0 else 1)
    cnt = on_board(pl)
    x[36] = <float>cnt / NCOL
    x[37] = <float>(NCOL - cnt) / NCOL
    for k in range(g_rules.n_kinds):
        gods[g_rules.kind_god[k]] += pl.hand[k] + pl.discard[k]
        hand_n += pl.hand[k]
        disc_n += pl.discard[k]
        if pl.hand[k] > 0:
            acts[g_rules.kind_action[k]] += pl.hand[k]
    for g in range(6):
        x[38 + g] = <float>gods[g] / 5.0
    x[44] = <float>hand_n / 10.0
    x[45] = <float>disc_n / 10.0
    x[46] = 1.0 if acts[C_TRIBUNE] > 0 else 0.0
    for k in range(9):
        x[47 + k] = <float>acts[k] / 2.0
    # the seat against the field
    for q in range(n):
        if q == p:
            continue
        if sc[q * NSCORE + 8] > best_other:
            best_other = sc[q * NSCORE + 8]
        w = s.pl[q].coins
        for g in range(NGOODS):
            w += s.pl[q].goods[g] * g_rules.price[g]
        wealth_others += w
        if s.pl[q].n_houses > best_houses:
            best_houses = s.pl[q].n_houses
    x[56] = (<float>sc[p * NSCORE + 8] - best_other) / 20.0
    x[57] = (wealth_p - wealth_others / (n - 1)) / 20.0
    x[58] = (<float>pl.n_houses - best_houses) / 5.0
    x[59] = <float>n / 5.0
    if n_in > VF_V1:
        economy_features(s, p, wealth_p, provinces, x)


cdef inline int card_worth(const Player* pl, int kind, const int* per_card) noexcept nogil:
    """The VP one more card of this kind would add to the seat's final score as things stand."""
    if g_rules.kind_good[kind] >= 0:      # a specialist: Minerva pays per house of its good
        return g_rules.kind_minerva[kind] * pl.houses_by_good[g_rules.kind_good[kind]]
    return per_card[g_rules.kind_god[kind]]


cdef void economy_features(const State* s, int p, float wealth_p, int provinces, float* x) noexcept nogil:
    """The second layout's features 60-70 of seat p: what a Prefect would produce for it, what a card of
    each god is worth to it now, and what the display offers it (public information only: the display and the
    markers, never the stack)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef const Player* pl = &s.pl[p]
    cdef int c, i, g, k, kinds = 0, v = variant(s), best = 0, best_paid = 0, w, paid, cash = 0
    cdef int prod[MAX_PROV]
    cdef int per_card[6]
    cdef int8_t need[NGOODS]
    cdef float prod_best = 0.0, prod_all = 0.0
    # production: each seat's houses produce in a province whose marker shows its good side
    memset(prod, 0, sizeof(prod))
    for c in range(b.n_cities):
        i = b.city_province[c]
        if i >= 0 and (pl.houses >> c & 1):
            prod[i] += g_rules.price[s.city_good[c]]
    for i in range(b.n_provinces):
        if s.marker_coin[i]:
            if s.marker_good[i] >= 0:
                cash += g_rules.marker_coins[s.marker_good[i]]
        elif s.marker_good[i] >= 0:
            prod_all += prod[i]
            w = prod[i] + g_rules.price[s.marker_good[i]]     # the Prefect's own bonus good too
            if w > prod_best:
                prod_best = w
    x[60] = prod_best / 20.0
    x[61] = prod_all / 40.0
    x[62] = <float>cash / 20.0
    # one more card of each god, worth (score_all's multipliers)
    for g in range(NGOODS):
        if pl.houses_by_good[g] > 0:
            kinds += 1
    per_card[G_VESTA] = <int>wealth_p // 10
    per_card[G_JUPITER] = pl.n_houses - pl.houses_by_good[BRICK]
    per_card[G_SATURNUS] = provinces
    per_card[G_MERCURIUS] = 2 * kinds
    per_card[G_MARS] = 2 * on_board(pl)
    per_card[G_MINERVA] = 0
    for k in range(g_rules.n_kinds):
        if g_rules.kind_good[k] >= 0:
            per_card[G_MINERVA] = imax(per_card[G_MINERVA], card_worth(pl, k, per_card))
    x[63] = <float>per_card[G_VESTA] / 10.0
    x[64] = <float>per_card[G_JUPITER] / 15.0
    x[65] = <float>per_card[G_SATURNUS] / 12.0
    x[66] = <float>per_card[G_MERCURIUS] / 10.0
    x[67] = <float>per_card[G_MARS] / 24.0
    x[68] = <float>per_card[G_MINERVA] / 15.0
    # the display: its best card for this seat, and the best it could pay for now as a Senator
    for i in range(DISPLAY):
        c = s.display[i]
        if c < 0:
            continue
        w = card_worth(pl, g_rules.card_kind[c], per_card)
        best = imax(best, w)
        if w <= best_paid:
            continue
        for g in range(NGOODS):
            need[g] = g_rules.card_cost[c][g] + g_rules.surcharge[v][i][g]
        paid = 0
        if g_rules.surcharge_any[v][i]:
            for g in range(NGOODS):
                need[g] += 1
                if can_pay(pl, need):
                    paid = 1
                need[g] -= 1
        else:
            paid = can_pay(pl, need)
        if paid:
            best_paid = w
    x[69] = <float>best / 15.0
    x[70] = <float>best_paid / 15.0


cdef int value_eval(const State* s, int slot, float* winp, float* vp) noexcept nogil:
    """Every seat's win probability and expected final VP by the weight set in `slot`. Returns 0 if no weights
    are loaded there for this player count (the caller falls back on the hand evaluation)."""
    cdef const ValueNet* net
    cdef int32_t sc[MAX_P * NSCORE]
    cdef float x[VF_N]
    cdef float h[VH_MAX]
    cdef float xi, s_win, s_vp, top = -1e30, total = 0.0
    cdef int n = s.n_players, p, j, i, hidden
    if n < 2 or n > MAX_P:
        return 0
    if slot < 0 or slot >= W_SLOTS:
        return 0
    net = &g_value[slot][n]
    if not net.ready:
        return 0
    hidden = net.hidden
    score_all(s, sc)
    for p in range(n):
        value_features(s, sc, p, x, net.n_in)
        for j in range(hidden):
            h[j] = net.b1[j]
        for i in range(net.n_in):
            xi = x[i]
            if xi == 0.0:          # many features are counts or one-hot flags that are zero
                continue
            for j in range(hidden):
                h[j] += net.w1t[i][j] * xi
        s_win = 0.0
        s_vp = net.b_vp
        for j in range(hidden):
            h[j] = fast_tanh(h[j])
            s_win += net.w_win[j] * h[j]
            s_vp += net.w_vp[j] * h[j]
        winp[p] = s_win
        vp[p] = net.vp_scale * s_vp
        if s_win > top:
            top = s_win
    for p in range(n):
        winp[p] = expf(winp[p] - top)
        total += winp[p]
    for p in range(n):
        winp[p] /= total
    return 1


# ---------------------------------------------------------------- Python face

def value_features_of(CoreState st not None):
    """The value model's input: a (players, VALUE_FEATURES) float32 array, one row per seat."""
    import numpy as np
    cdef int32_t sc[MAX_P * NSCORE]
    cdef int p
    _require_game(st)
    out = np.zeros((st.s.n_players, VF_N), dtype=np.float32)
    cdef float[:, ::1] view = out
    score_all(&st.s, sc)
    for p in range(st.s.n_players):
        value_features(&st.s, sc, p, &view[p, 0], VF_N)
    return out


def value_set_weights(int n_players, w1, b1, w_win, w_vp, float b_vp, float vp_scale, int slot=0):
    """Load one player count's weights into the core's weight slot `slot` (shapes: w1 (H, F) with F one of
    VALUE_FEATURE_LAYOUTS, b1/w_win/w_vp (H,))."""
    import numpy as np
    if not 2 <= n_players <= MAX_P:
        raise ValueError(f"value weights: player count {n_players} is not 2..{MAX_P}")
    _check_slot(slot)
    a1 = np.ascontiguousarray(w1, dtype=np.float32)
    vb = np.ascontiguousarray(b1, dtype=np.float32)
    vw = np.ascontiguousarray(w_win, dtype=np.float32)
    vv = np.ascontiguousarray(w_vp, dtype=np.float32)
    if a1.ndim != 2 or a1.shape[1] not in (VF_V1, VF_N) or not 1 <= a1.shape[0] <= VH_MAX:
        raise ValueError(f"value weights: w1 has shape {a1.shape}, expected (1..{VH_MAX}, {VF_V1} or {VF_N})")
    cdef int hidden = a1.shape[0], n_in = a1.shape[1], j, i
    for name, v in (("b1", vb), ("w_win", vw), ("w_vp", vv)):
        if v.shape != (hidden,):
            raise ValueError(f"value weights: {name} has shape {v.shape}, expected ({hidden},)")
    for v in (a1, vb, vw, vv, np.float32(b_vp), np.float32(vp_scale)):
        if not np.all(np.isfinite(v)):
            raise ValueError("value weights: not every weight is a finite number")
    cdef float[:, ::1] m1 = a1
    cdef float[::1] mb = vb, mw = vw, mv = vv
    cdef ValueNet* net = &g_value[slot][n_players]
    net.ready = 0
    net.hidden = hidden
    net.n_in = n_in
    for j in range(hidden):
        for i in range(n_in):
            net.w1t[i][j] = m1[j, i]
        net.b1[j] = mb[j]
        net.w_win[j] = mw[j]
        net.w_vp[j] = mv[j]
    net.b_vp = b_vp
    net.vp_scale = vp_scale
    net.ready = 1


def _check_slot(int slot):
    if not 0 <= slot < W_SLOTS:
        raise ValueError(f"weight slot {slot} is not 0..{W_SLOTS - 1}")


def value_clear(int slot=0):
    """Forget the weight sets of one slot, every player count (a search there then has no value model)."""
    cdef int n
    _check_slot(slot)
    for n in range(MAX_P + 1):
        g_value[slot][n].ready = 0


def value_ready(int n_players, int slot=0):
    return 0 <= slot < W_SLOTS and 2 <= n_players <= MAX_P and g_value[slot][n_players].ready == 1


def value_of(CoreState st not None, int slot=0):
    """(win probabilities, expected final VP) of every seat by the set in `slot`, or None without weights there
    for this player count."""
    cdef float w[MAX_P]
    cdef float v[MAX_P]
    _require_game(st)
    _check_slot(slot)
    if not value_eval(&st.s, slot, w, v):
        return None
    return [w[p] for p in range(st.s.n_players)], [v[p] for p in range(st.s.n_players)]


def bench_value(CoreState st not None, int reps):
    """CPU seconds for `reps` forward passes of the value model (all seats) on st."""
    cdef float w[MAX_P]
    cdef float v[MAX_P]
    cdef int i
    cdef double acc = 0.0, t0, t1
    _require_game(st)
    if not g_value[0][st.s.n_players].ready:
        raise ValueError("no value weights loaded for this player count")
    with nogil:
        t0 = clock()
        for i in range(reps):
            value_eval(&st.s, 0, w, v)
            acc += w[0]
        t1 = clock()
    return (t1 - t0) / CLOCKS_PER_SEC, acc
