# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- architect movement

cdef void own_on_route(const State* s, int p, int r, int* unmoved, int* moved) noexcept nogil:
    cdef int i
    cdef const Player* pl = &s.pl[p]
    unmoved[0] = 0
    moved[0] = 0
    for i in range(NCOL):
        if pl.col[i] == ROUTE_BASE + r:
            if s.moved >> i & 1:
                moved[0] += 1
            else:
                unmoved[0] += 1


cdef bint route_open(const State* s, int p, int r, int* own_unmoved) noexcept nogil:
    """May a moving colonist end on r? Not if another player's or an already moved own colonist holds it."""
    cdef int unm, mov
    own_unmoved[0] = 0
    if not g_boards[s.board_id].route_cap[r]:
        return True
    own_on_route(s, p, r, &unm, &mov)
    own_unmoved[0] = unm
    return mov == 0 and s.route_occ[r] - unm - mov == 0


cdef void move_colonist(State* s, int p, int i, int r) noexcept nogil:
    cdef Player* pl = &s.pl[p]
    if pl.col[i] >= ROUTE_BASE:
        s.route_occ[pl.col[i] - ROUTE_BASE] -= 1
    pl.col[i] = ROUTE_BASE + r
    s.route_occ[r] += 1


cdef bint can_complete(State* s, int p, int steps) noexcept nogil:
    """Is there a way to end the movement with every single-capacity route holding one colonist?

    Only an unmoved own colonist sharing a route with a moved one can be in conflict; it must move on.
    Depth is bounded by the steps left (every move costs at least one)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef Player* pl = &s.pl[p]
    cdef int i, j = -1, loc, r, r2, d, unm, sea
    cdef int8_t saved_moved
    cdef int16_t saved_loc
    for i in range(NCOL):
        if s.moved >> i & 1:
            continue
        loc = pl.col[i]
        if loc >= ROUTE_BASE and b.route_cap[loc - ROUTE_BASE] and s.route_occ[loc - ROUTE_BASE] > 1:
            j = i
            break
    if j < 0:
        return True
    loc = pl.col[j]
    sea = colonist_is_sea(j)
    for r2 in range(b.n_routes):
        if b.route_sea[r2] != sea or ROUTE_BASE + r2 == loc:
            continue
        d = b.dist_rr[loc - ROUTE_BASE][r2]
        if d > steps:
            continue
        if not route_open(s, p, r2, &unm):
            continue
        saved_moved = s.moved
        saved_loc = pl.col[j]
        move_colonist(s, p, j, r2)
        s.moved |= 1 << j
        if can_complete(s, p, steps - d):
            s.route_occ[r2] -= 1
            pl.col[j] = saved_loc
            s.route_occ[saved_loc - ROUTE_BASE] += 1
            s.moved = saved_moved
            return True
        s.route_occ[r2] -= 1
        pl.col[j] = saved_loc
        s.route_occ[saved_loc - ROUTE_BASE] += 1
        s.moved = saved_moved
    return False


cdef bint arch_conflict(const State* s, int p) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int i, loc
    for i in range(NCOL):
        loc = s.pl[p].col[i]
        if loc >= ROUTE_BASE and b.route_cap[loc - ROUTE_BASE] and s.route_occ[loc - ROUTE_BASE] > 1:
            return True
    return False


cdef int gen_moves_any(State* s, int32_t* out, int n) noexcept nogil:
    """Every order (tests only, `set_all_orders`): any unmoved colonist, onto any open route, the end judged
    by `can_complete`. The canonical generator below must reach the same outcomes."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p = s.turn_player
    cdef Player* pl = &s.pl[p]
    cdef int i, j, loc, r, d, unm, sea, dup, ok
    cdef int16_t saved_loc
    cdef int8_t saved_moved
    cdef bint conflict = arch_conflict(s, p)
    for i in range(NCOL):
        if s.moved >> i & 1:
            continue
        loc = pl.col[i]
        if loc == LOC_STORE or on_square(b, loc):
            continue
        sea = colonist_is_sea(i)
        dup = 0
        for j in range(3 * sea, i):
            if pl.col[j] == loc and not (s.moved >> j & 1):
                dup = 1     # identical colonists in the same place: offer the first only
        if dup:
            continue
        for r in range(b.n_routes):
            if b.route_sea[r] != sea or ROUTE_BASE + r == loc:
                continue
            d = dist_to(b, loc, r)
            if d > s.steps:
                continue
            if not route_open(s, p, r, &unm):
                continue
            if unm > 0 or conflict:
                # a conflict exists after this move: legal only if the movement can still end validly
                saved_loc = pl.col[i]
                saved_moved = s.moved
                move_colonist(s, p, i, r)
                s.moved |= 1 << i
                ok = can_complete(s, p, s.steps - d)
                s.route_occ[r] -= 1
                pl.col[i] = saved_loc
                if saved_loc >= ROUTE_BASE:
                    s.route_occ[saved_loc - ROUTE_BASE] += 1
                s.moved = saved_moved
                if not ok:
                    continue
            out[n] = A_MOVE | i << 8 | r << 16
            n += 1
    return n


cdef int PERM3[18]          # the six orders of three colonists, the identity first
for _k, _v in enumerate((0, 1, 2, 1, 0, 2, 0, 2, 1, 1, 2, 0, 2, 0, 1, 2, 1, 0)):
    PERM3[_k] = _v


cdef bint canonical_pairing(const State* s, int p, int i, int r) noexcept nogil:
    """With colonist i ending on r: do this type's moved colonists pair their starting places with their
    destinations at the lowest total cost, and among the cheapest pairings with the lowest destinations
    first in colonist order? Any other pairing leaves the same places occupied, so only this one is offered.
    Moves come in colonist order, so the pairing so far is a prefix of the final one and stays canonical."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef const Player* pl = &s.pl[p]
    cdef int o[3]
    cdef int t[3]
    cdef int m = 0, j, k, q, cost = 0, alt, d, bad
    for j in range(3 * colonist_is_sea(i), i):
        if s.moved >> j & 1:
            o[m] = s.arch_from[j]
            t[m] = pl.col[j] - ROUTE_BASE
            m += 1
    if m == 0:
        return True
    o[m] = pl.col[i]
    t[m] = r
    m += 1
    for k in range(m):
        cost += dist_to(b, o[k], t[k])
    for q in range(1, 6):
        bad = 0
        for k in range(m, 3):
            if PERM3[3 * q + k] != k:
                bad = 1     # an order of three when fewer colonists moved
        if bad:
            continue
        alt = 0
        for k in range(m):
            d = dist_to(b, o[k], t[PERM3[3 * q + k]])
            if d == 255:
                bad = 1
            alt += d
        if bad or alt > cost:
            continue
        if alt < cost:
            return False
        for k in range(m):
            if t[PERM3[3 * q + k]] != t[k]:
                if t[PERM3[3 * q + k]] < t[k]:
                    return False
                break
    return True


cdef int gen_moves(State* s, int32_t* out, int n) noexcept nogil:
    """The canonical Architect movement: colonists move in increasing index (one skipped stays where it is),
    each at most once, straight to its destination, never onto a place an own colonist of its type starts
    from or leaves (that is a chain, the same as one direct move), with the cheapest pairing of starts and
    destinations. So each set of end places is reached by exactly one sequence, and no route is ever in
    conflict (occupancy is judged on the end places, ruling 35)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p = s.turn_player
    cdef Player* pl = &s.pl[p]
    cdef int i, j, loc, r, d, sea, skip, first = 0
    if g_all_orders:
        return gen_moves_any(s, out, n)
    for j in range(NCOL):
        if s.moved >> j & 1:
            first = j + 1
    for i in range(first, NCOL):
        loc = pl.col[i]
        if loc == LOC_STORE or on_square(b, loc):
            continue
        sea = colonist_is_sea(i)
        skip = 0
        for j in range(3 * sea, i):
            if pl.col[j] == loc:
                # an identical colonist stays (moving this one is moving that one), or one moved onto
                # this place (this one leaving would make a chain)
                skip = 1
        if skip:
            continue
        for r in range(b.n_routes):
            if b.route_sea[r] != sea or ROUTE_BASE + r == loc:
                continue
            d = dist_to(b, loc, r)
            if d > s.steps:
                continue
            if b.route_cap[r] and s.route_occ[r] > 0:
                continue
            for j in range(3 * sea, i):
                if s.moved >> j & 1 and s.arch_from[j] == ROUTE_BASE + r:
                    d = 255     # a route an own colonist has left: a chain
            if d == 255 or not canonical_pairing(s, p, i, r):
                continue
            out[n] = A_MOVE | i << 8 | r << 16
            n += 1
    return n


cdef uint64_t build_mask(const State* s, int p) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef uint64_t m = 0
    cdef int i, loc
    for i in range(NCOL):
        loc = s.pl[p].col[i]
        if loc >= ROUTE_BASE:
            m |= b.route_ends[loc - ROUTE_BASE]
    return m


cdef inline int house_coin_cost(const State* s, int c) noexcept nogil:
    return g_rules.house_coins[s.city_good[c]] * (s.city_houses[c] + 1)


cdef int gen_builds(State* s, int32_t* out, int n) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p = s.turn_player
    cdef const Player* pl = &s.pl[p]
    cdef uint64_t m
    cdef int c
    if pl.n_houses >= g_rules.houses:
        return n
    m = build_mask(s, p) & ~pl.houses
    for c in range(b.n_cities):
        if not (m >> c & 1) or c == b.start_city or b.city_special[c] or s.city_good[c] < 0:
            continue
        if c <= s.pick_last and not g_all_orders:
            continue    # builds in increasing city order: a house's price does not depend on the others
        if pl.coins >= house_coin_cost(s, c) and can_pay(pl, g_rules.house_goods[s.city_good[c]]):
            out[n] = A_BUILD | c << 8
            n += 1
    return n


cdef int gen_mercator_any(State* s, int32_t* out, int n) noexcept nogil:
    """Every order of a Mercator's trades (tests only): buy or sell each kind once, in any order."""
    cdef const Player* pl = &s.pl[s.turn_player]
    cdef int g, m, total
    for g in range(NGOODS):
        if s.merc_sold_mask >> g & 1 or g == s.merc_bought_last:
            continue
        for m in range(1, pl.goods[g] + 1):
            out[n] = A_SELL | g << 8 | m << 16
            n += 1
        total = imin(free_space(pl), pl.coins // g_rules.price[g])
        for m in range(1, total + 1):
            out[n] = A_BUY | g << 8 | m << 16
            n += 1
    return n



# ---------------------------------------------------------------- legal sub-decisions

cdef bint copied_fresh(const State* s) noexcept nogil:
    """A card copied by a Diplomat with nothing decided in it yet. Ending it now would be the Diplomat's
    own `done` (the same state), so that ending is offered once, as that `done`."""
    cdef const Player* pl = &s.pl[s.turn_player]
    cdef int ph = s.phase
    if g_all_orders or pl.top < 0 or g_rules.kind_action[pl.top] != C_DIPLOMAT:
        return False
    if ph == PH_ARCH_MOVE:
        return s.moved == 0
    if ph == PH_SENATOR or ph == PH_CONSUL:
        return s.buys == 0
    if ph == PH_COLONIST:
        return s.col_cash_ok
    return ph == PH_PREFECT


cdef int cash_total(const State* s) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int pv, total = b.cash_extra
    for pv in range(b.n_provinces):
        if s.marker_coin[pv]:
            total += g_rules.marker_coins[s.marker_good[pv]]
    return total


cdef bint same_outcome(const State* a, const State* b) noexcept nogil:
    """The same table after a turn (the scratch of the card in play aside)."""
    cdef int p
    if a.phase != b.phase or a.decider != b.decider or a.turns != b.turns or a.pm_holder != b.pm_holder \
            or a.end_player != b.end_player or a.nile_pos != b.nile_pos:
        return False
    if memcmp_bytes(<const char*>a.marker_coin, <const char*>b.marker_coin, sizeof(a.marker_coin)) or \
            memcmp_bytes(<const char*>a.marker_good, <const char*>b.marker_good, sizeof(a.marker_good)):
        return False
    for p in range(a.n_players):
        if memcmp_bytes(<const char*>&a.pl[p], <const char*>&b.pl[p], sizeof(Player)):
            return False
    return True


cdef bint copy_is_empty(const State* s, int k) noexcept nogil:
    """Would copying kind k reach nothing that the Diplomat's own `done` does not? Then it is not offered:
    a copied card whose every outcome is no change (a Senator with nothing affordable, a specialist with no
    house of its good...) is the same as copying nothing."""
    cdef State t, u
    cdef int32_t buf[MAX_ACTIONS]
    memcpy(&t, s, sizeof(State))
    resolve_card(&t, k)
    if t.turns == s.turns and t.phase != PH_OVER and t.phase != PH_PLAY:
        return gen_legal(&t, buf) == 0
    memcpy(&u, s, sizeof(State))
    end_turn(&u)
    return same_outcome(&t, &u)


cdef int gen_legal(State* s, int32_t* out) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int n = 0, p = s.turn_player, k, q, t, g, i, m, seen_dipl = 0, v, a, c, free, top, lo, total
    cdef int first, first_good
    cdef Player* pl = &s.pl[p]
    cdef int8_t need[NGOODS]
    cdef uint64_t copied = 0
    cdef int ph = s.phase
    if ph == PH_PLAY:
        for k in range(g_rules.n_kinds):
            if pl.hand[k] == 0:
                continue
            if g_rules.kind_action[k] == C_DIPLOMAT:
                # Diplomats differ only in their god, which scores the same in hand or on the pile
                if seen_dipl:
                    continue
                seen_dipl = 1
            out[n] = A_PLAY | k << 8
            n += 1
    elif ph == PH_DIPLOMAT:
        out[n] = A_DONE
        n += 1
        for q in range(s.n_players):
            t = s.pl[q].top
            if q == p or t < 0 or g_rules.kind_action[t] == C_DIPLOMAT or (copied >> t & 1):
                continue
            copied |= (<uint64_t>1) << t
            if not g_all_orders and copy_is_empty(s, t):
                continue
            out[n] = A_COPY | t << 8
            n += 1
    elif ph == PH_TRIBUNE:
        out[n] = A_DONE
        n += 1
        if can_pay(pl, g_rules.colonist_cost):
            for t in range(2):
                if stored_of_type(pl, t) >= 0:
                    out[n] = A_TRIB_COL | t << 8
                    n += 1
    elif ph == PH_ARCH_MOVE:
        if not arch_conflict(s, p):
            if not copied_fresh(s) or pending_square(s, p, &m, &v) >= 0:
                out[n] = A_DONE
                n += 1
            n = gen_builds(s, out, n)
        n = gen_moves(s, out, n)
    elif ph == PH_ARCH_BUILD:
        out[n] = A_DONE
        n += 1
        n = gen_builds(s, out, n)
    elif ph == PH_PREFECT:
        if not copied_fresh(s) or cash_total(s) > 0:
            out[n] = A_CASH
            n += 1
        for v in range(b.n_provinces):
            if s.marker_coin[v]:
                continue
            if v == b.variable_province:
                for g in range(NGOODS):
                    out[n] = A_PRODUCE | v << 8 | g << 16
                    n += 1
            else:
                out[n] = A_PRODUCE | v << 8 | 255 << 16
                n += 1
    elif ph == PH_MERCATOR:
        out[n] = A_DONE
        n += 1
        if s.merc_kinds < 2 and g_all_orders:
            n = gen_mercator_any(s, out, n)
        elif s.merc_kinds < 2:
            if s.merc_bought_last < 0:
                for g in range(s.merc_sold_last + 1, NGOODS):
                    for m in range(1, pl.goods[g] + 1):
                        out[n] = A_SELL | g << 8 | m << 16
                        n += 1
            free = free_space(pl)
            for g in range(s.merc_bought_last + 1, NGOODS):
                if s.merc_sold_mask >> g & 1:
                    continue
                total = imin(free, pl.coins // g_rules.price[g])
                for m in range(1, total + 1):
                    out[n] = A_BUY | g << 8 | m << 16
                    n += 1
    elif ph == PH_SENATOR or ph == PH_CONSUL:
        if not copied_fresh(s):
            out[n] = A_DONE
            n += 1
        if ph == PH_CONSUL or s.buys < 2:
            v = variant(s)
            # a Senator's two cards in increasing slot order (the slots keep their prices until the refill);
            # when both pay an 'any' surcharge, the second pays a good no lower than the first
            first = s.pick_last % 8 if s.pick_last >= 0 else -1
            first_good = s.pick_last // 8 - 1 if s.pick_last >= 0 else -1
            if g_all_orders:
                first = first_good = -1
            for i in range(DISPLAY):
                c = s.display[i]
                if c < 0 or i <= first:
                    continue
                for g in range(NGOODS):
                    need[g] = g_rules.card_cost[c][g]
                    if ph == PH_SENATOR:
                        need[g] += g_rules.surcharge[v][i][g]
                if ph == PH_SENATOR and g_rules.surcharge_any[v][i]:
                    for a in range(imax(first_good, 0), NGOODS):
                        need[a] += 1
                        if can_pay(pl, need):
                            out[n] = A_CARD | i << 8 | a << 16
                            n += 1
                        need[a] -= 1
                elif can_pay(pl, need):
                    out[n] = A_CARD | i << 8 | 255 << 16
                    n += 1
    elif ph == PH_COLONIST:
        if not copied_fresh(s):
            out[n] = A_DONE
            n += 1
        if s.col_cash_ok:
            out[n] = A_COLCASH
            n += 1
        if can_pay(pl, g_rules.colonist_cost):
            for t in range(2):
                if stored_of_type(pl, t) < 0:
                    continue
                for c in range(b.n_cities):
                    if t * MAX_CITIES + c < s.col_last and not g_all_orders:
                        continue
                    if c == b.start_city or (pl.houses >> c & 1):
                        out[n] = A_PLACE | t << 8 | c << 16
                        n += 1
    elif ph == PH_KEEP:
        q = s.keep_player
        free = free_space(&s.pl[q])
        total = 0
        for g in range(NGOODS - 1, s.keep_last - 1, -1):
            total += s.pend[q][g]
            # keep g only if goods of kind >= g can still fill the storehouse (no space left empty)
            if s.pend[q][g] > 0 and total >= free:
                out[n] = A_KEEP | g << 8
                n += 1
    elif ph == PH_SQUARE:
        t = pending_square(s, p, &m, &v)
        for i in range(3, NCOL):
            c = pl.col[i]
            if c < ROUTE_BASE or b.route_square[c - ROUTE_BASE] != t:
                continue
            a = 0
            for q in range(3, i):
                if pl.col[q] == c:
                    a = 1   # a second colonist on the same line: the same outcome
            if not a:
                out[n] = A_ENTER | (c - ROUTE_BASE) << 8
                n += 1
    elif ph == PH_CHANCE:
        if s.stack_len > 0:
            top = s.stack_len - 1
            lo = top
            while lo > 0 and g_rules.card_deck[s.stack[lo - 1]] == g_rules.card_deck[s.stack[top]]:
                lo -= 1
            for i in range(lo, top + 1):
                out[n] = A_REVEAL | s.stack[i] << 8
                n += 1
    return n
