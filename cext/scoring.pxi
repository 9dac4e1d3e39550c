# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- scoring

cdef void score_all(const State* s, int32_t* out) noexcept nogil:
    """Per player: Vesta Jupiter Saturnus Mercurius Mars Minerva Concordia Squares Total, 'if the game ended now'."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p, k, g, v, cnt, kinds, squares, i
    cdef int gods[6]
    cdef const Player* pl
    cdef int32_t* row
    for p in range(s.n_players):
        pl = &s.pl[p]
        row = out + p * NSCORE
        memset(gods, 0, sizeof(gods))
        row[5] = 0
        for k in range(g_rules.n_kinds):
            cnt = pl.hand[k] + pl.discard[k]
            if cnt == 0:
                continue
            gods[g_rules.kind_god[k]] += cnt
            if g_rules.kind_good[k] >= 0:
                row[5] += cnt * g_rules.kind_minerva[k] * pl.houses_by_good[g_rules.kind_good[k]]
        v = pl.coins
        for g in range(NGOODS):
            v += pl.goods[g] * g_rules.price[g]
        row[0] = (v // 10) * gods[G_VESTA]
        row[1] = (pl.n_houses - pl.houses_by_good[BRICK]) * gods[G_JUPITER]
        cnt = 0
        for i in range(b.n_provinces):
            if pl.houses & b.province_mask[i]:
                cnt += 1
        row[2] = cnt * gods[G_SATURNUS]
        kinds = 0
        for g in range(NGOODS):
            if pl.houses_by_good[g] > 0:
                kinds += 1
        row[3] = 2 * kinds * gods[G_MERCURIUS]
        row[4] = 2 * on_board(pl) * gods[G_MARS]
        row[6] = g_rules.concordia_vp if s.end_player == p else 0
        squares = 0
        for i in range(NCOL):
            if on_square(b, pl.col[i]):
                squares += 1
        row[7] = squares * b.square_vp
        row[8] = row[0] + row[1] + row[2] + row[3] + row[4] + row[5] + row[6] + row[7]


cdef void ranking(const State* s, int32_t* scores, int8_t* order) noexcept nogil:
    """Players best first; ties go to the Praefectus Magnus holder, then in the order it passes (to the right)."""
    cdef int i, j, n = s.n_players, a, bb, ta, tb, pa, pb
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        j = i
        while j > 0:
            a = order[j - 1]
            bb = order[j]
            ta = scores[a * NSCORE + 8]
            tb = scores[bb * NSCORE + 8]
            pa = (s.pm_holder - a + n) % n
            pb = (s.pm_holder - bb + n) % n
            if tb > ta or (tb == ta and pb < pa):
                order[j - 1] = bb
                order[j] = a
                j -= 1
            else:
                break


cdef void shuffle_hidden(State* s, uint64_t* r) noexcept nogil:
    """A determinization: re-deal the order of the unseen cards inside each deck (decks never mix)."""
    cdef int lo = 0, hi, i, j, t
    while lo < s.stack_len:
        hi = lo
        while hi + 1 < s.stack_len and g_rules.card_deck[s.stack[hi + 1]] == g_rules.card_deck[s.stack[lo]]:
            hi += 1
        for i in range(hi, lo, -1):
            j = lo + <int>rng_below(r, i - lo + 1)
            t = s.stack[i]; s.stack[i] = s.stack[j]; s.stack[j] = t
        lo = hi + 1


cdef int random_playout(State* s, uint64_t* r, int max_steps) noexcept nogil:
    cdef int32_t acts[MAX_ACTIONS]
    cdef int n, steps = 0
    while s.phase != PH_OVER and steps < max_steps:
        n = gen_legal(s, acts)
        if n <= 0:
            return -1
        apply_action(s, acts[rng_below(r, n)])
        steps += 1
    return steps
