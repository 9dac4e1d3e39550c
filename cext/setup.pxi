# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- setup

cdef void set_markers(State* s) noexcept nogil:
    """Each province gets the marker of its most valuable city good, goods side up."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int pv, c, best
    for pv in range(b.n_provinces):
        s.marker_coin[pv] = 0
        if pv == b.variable_province:
            s.marker_good[pv] = -1
            continue
        best = -1
        for c in range(b.n_cities):
            if b.city_province[c] == pv and s.city_good[c] > best:
                best = s.city_good[c]
        s.marker_good[pv] = best


cdef void recompute_derived(State* s) noexcept nogil:
    """Counters kept incrementally for speed, rebuilt from the primary fields."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p, c, i
    cdef Player* pl
    memset(s.city_houses, 0, sizeof(s.city_houses))
    memset(s.route_occ, 0, sizeof(s.route_occ))
    for p in range(s.n_players):
        pl = &s.pl[p]
        pl.n_houses = 0
        memset(pl.houses_by_good, 0, sizeof(pl.houses_by_good))
        for c in range(b.n_cities):
            if pl.houses >> c & 1:
                pl.n_houses += 1
                s.city_houses[c] += 1
                if s.city_good[c] >= 0:
                    pl.houses_by_good[s.city_good[c]] += 1
        for i in range(NCOL):
            if pl.col[i] >= ROUTE_BASE:
                s.route_occ[pl.col[i] - ROUTE_BASE] += 1


cdef void init_state(State* s, int board_id, int n_players, uint64_t seed, int options) noexcept nogil:
    cdef const Board* b = &g_boards[board_id]
    cdef int8_t pool[MAX_CITIES]
    cdef int8_t cities[MAX_CITIES]
    cdef int8_t ids[MAX_MARKET]
    cdef int letter, g, k, n, c, i, j, t, d, p
    cdef Player* pl
    memset(s, 0, sizeof(State))
    s.board_id = board_id
    s.n_players = n_players
    s.options = options
    s.rng = seed_mix(seed)
    s.end_player = -1
    for c in range(MAX_CITIES):
        s.city_good[c] = -1
    # city tokens: shuffled per letter, all face up
    for letter in range(4):
        n = 0
        for c in range(b.n_cities):
            if b.city_letter[c] == letter:
                cities[n] = c
                n += 1
        if n == 0:
            continue
        k = 0
        for g in range(NGOODS):
            for i in range(g_rules.tokens[letter][g]):
                if k < MAX_CITIES:
                    pool[k] = g
                    k += 1
        for i in range(k - 1, 0, -1):
            j = rng_below(&s.rng, i + 1)
            t = pool[i]; pool[i] = pool[j]; pool[j] = t
        for i in range(imin(n, k)):
            s.city_good[cities[i]] = pool[i]
    set_markers(s)
    # the stack: decks I..N, each shuffled alone, deck I on top (the end of the array)
    s.stack_len = 0
    for d in range(n_players - 1, -1, -1):
        n = 0
        for i in range(g_rules.n_market):
            if g_rules.card_deck[i] == d:
                ids[n] = i
                n += 1
        for i in range(n - 1, 0, -1):
            j = rng_below(&s.rng, i + 1)
            t = ids[i]; ids[i] = ids[j]; ids[j] = t
        for i in range(n - 1, -1, -1):
            s.stack[s.stack_len] = ids[i]
            s.stack_len += 1
    s.order_known = 1
    for i in range(DISPLAY):
        s.display[i] = -1
        if s.stack_len > 0:
            s.stack_len -= 1
            s.display[i] = s.stack[s.stack_len]
    for p in range(n_players):
        pl = &s.pl[p]
        pl.coins = g_rules.coins_by_seat[p]
        for g in range(NGOODS):
            pl.goods[g] = g_rules.start_goods[g]
        for i in range(NCOL):
            pl.col[i] = LOC_STORE
        pl.col[0] = b.start_city
        pl.col[3] = b.start_city
        for k in range(g_rules.n_kinds):
            pl.hand[k] = g_rules.start_hand[k]
        pl.top = -1
    s.pm_holder = n_players - 1
    s.act_kind = -1
    clear_picks(s)
    s.merc_sold_last = -1
    s.merc_bought_last = -1
    s.turn_player = 0
    s.phase = PH_PLAY
    s.decider = 0
    recompute_derived(s)
