# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- invariants (tests and debugging)

cdef list invariant_errors(const State* s):
    cdef const Board* b = &g_boards[s.board_id]
    cdef State t
    cdef int p, g, i, j, total, n_cards, c
    cdef const Player* pl
    errs = []
    memcpy(&t, s, sizeof(State))
    recompute_derived(&t)
    if memcmp_state(&t, s):
        errs.append("incremental counters differ from a recount")
    for p in range(s.n_players):
        pl = &s.pl[p]
        if pl.coins < 0:
            errs.append(f"player {p}: negative coins {pl.coins}")
        total = 0
        for g in range(NGOODS):
            if pl.goods[g] < 0:
                errs.append(f"player {p}: negative goods")
            total += pl.goods[g]
        for i in range(NCOL):
            if pl.col[i] == LOC_STORE:
                total += 1
        if total > g_rules.slots:
            errs.append(f"player {p}: storehouse holds {total} > {g_rules.slots}")
        if pl.n_houses > g_rules.houses:
            errs.append(f"player {p}: {pl.n_houses} houses")
        if pl.houses >> b.start_city & 1:
            errs.append(f"player {p}: house in the start city")
        n_cards = 0
        for i in range(g_rules.n_kinds):
            n_cards += pl.hand[i] + pl.discard[i]
        if n_cards < 7:
            errs.append(f"player {p}: only {n_cards} cards")
        for i in range(NCOL):
            c = pl.col[i]
            if c >= ROUTE_BASE and b.route_sea[c - ROUTE_BASE] != colonist_is_sea(i):
                errs.append(f"player {p}: colonist {i} on a route of the wrong kind")
        for i in range(3, NCOL):
            for j in range(3, i):
                if pl.col[i] == pl.col[j] and on_square(b, pl.col[i]):
                    errs.append(f"player {p}: two colonists on one special square")
    if s.phase == PH_PLAY or s.phase == PH_OVER:
        for i in range(b.n_routes):
            if b.route_cap[i] and s.route_occ[i] > 1:
                errs.append(f"route {i} holds {s.route_occ[i]} colonists")
    return errs


cdef int memcmp_state(const State* a, const State* b) noexcept nogil:
    cdef int p
    if memcmp_bytes(<const char*>a.city_houses, <const char*>b.city_houses, sizeof(a.city_houses)):
        return 1
    if memcmp_bytes(<const char*>a.route_occ, <const char*>b.route_occ, sizeof(a.route_occ)):
        return 1
    for p in range(a.n_players):
        if a.pl[p].n_houses != b.pl[p].n_houses:
            return 1
        if memcmp_bytes(<const char*>a.pl[p].houses_by_good, <const char*>b.pl[p].houses_by_good, NGOODS):
            return 1
    return 0


cdef int memcmp_bytes(const char* a, const char* b, size_t n) noexcept nogil:
    cdef size_t i
    for i in range(n):
        if a[i] != b[i]:
            return 1
    return 0
