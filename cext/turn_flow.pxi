# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- turn flow

cdef void trigger_end(State* s, int p) noexcept nogil:
    """Buying the last display card or building the 15th house: the Concordia card; a second trigger does nothing."""
    if s.end_player >= 0:
        return
    s.end_player = p
    s.end_this_turn = 1
    s.final_turns = s.n_players - 1


cdef void clear_picks(State* s) noexcept nogil:
    """The canonical-order memory of the card in play; cleared so that states between turns compare alike."""
    cdef int i
    for i in range(NCOL):
        s.arch_from[i] = LOC_STORE
    s.pick_last = -1


cdef void end_turn(State* s) noexcept nogil:
    clear_picks(s)
    if s.end_player >= 0:
        if s.end_this_turn:
            s.end_this_turn = 0
        elif s.final_turns > 0:     # never below 0, even from a loaded position that should be over
            s.final_turns -= 1
        if s.final_turns <= 0:
            s.phase = PH_OVER
            s.decider = DECIDER_NONE
            return
    s.turns += 1
    s.turn_player = (s.turn_player + 1) % s.n_players
    s.phase = PH_PLAY
    s.decider = s.turn_player
    s.act_kind = -1


cdef int settle_gain(State* s, int q) noexcept nogil:
    """Store what player q receives. Returns 0 when q has a real keep-choice to make (ruling 38)."""
    cdef Player* pl = &s.pl[q]
    cdef int free = free_space(pl)
    cdef int g, total = 0, kinds = 0, last = -1
    for g in range(NGOODS):
        if s.pend[q][g] > 0:
            total += s.pend[q][g]
            kinds += 1
            last = g
    if total == 0:
        return 1
    if total <= free:
        for g in range(NGOODS):
            pl.goods[g] += s.pend[q][g]
            s.pend[q][g] = 0
        return 1
    if kinds == 1 or free <= 0:
        if free > 0:
            pl.goods[last] += free
        for g in range(NGOODS):
            s.pend[q][g] = 0
        return 1
    return 0


cdef void resolve_gains(State* s) noexcept nogil:
    """Players receive goods in turn order from the current player; the first real choice stops here."""
    cdef int q = s.keep_player
    while True:
        if not settle_gain(s, q):
            s.keep_player = q
            s.phase = PH_KEEP
            s.decider = q
            return
        q = (q + 1) % s.n_players
        if q == s.turn_player:
            break
    end_turn(s)


cdef void start_gains(State* s) noexcept nogil:
    s.keep_player = s.turn_player
    s.keep_last = 0
    resolve_gains(s)


cdef void refill(State* s) noexcept nogil:
    """Close the gaps, then refill from the stack; each card revealed is a chance event."""
    cdef int i, n = 0, top, lo, j, t, deck
    for i in range(DISPLAY):
        if s.display[i] >= 0:
            s.display[n] = s.display[i]
            n += 1
    for i in range(n, DISPLAY):
        s.display[i] = -1
    while n < DISPLAY and s.stack_len > 0:
        top = s.stack_len - 1
        if not s.order_known:
            # the order inside the top deck is unknown: keep it canonical (sorted), so a state's
            # draws depend on what is unseen and the RNG only, never on how the array was stored
            deck = g_rules.card_deck[s.stack[top]]
            lo = top
            while lo > 0 and g_rules.card_deck[s.stack[lo - 1]] == deck:
                lo -= 1
            for i in range(lo + 1, top + 1):
                j = i
                while j > lo and s.stack[j - 1] > s.stack[j]:
                    t = s.stack[j]; s.stack[j] = s.stack[j - 1]; s.stack[j - 1] = t
                    j -= 1
            if s.chance_external:
                s.phase = PH_CHANCE
                s.decider = DECIDER_CHANCE
                return
            # sample uniformly among the unseen cards of the top deck
            j = lo + <int>rng_below(&s.rng, top - lo + 1)
            t = s.stack[j]; s.stack[j] = s.stack[top]; s.stack[top] = t
        s.display[n] = s.stack[top]
        s.stack_len -= 1
        n += 1
    if n == 0 and s.stack_len == 0:
        trigger_end(s, s.turn_player)
    end_turn(s)


cdef void finish_tribune(State* s) noexcept nogil:
    cdef int p = s.turn_player, q, rank, n_done = 0
    cdef Player* pl = &s.pl[p]
    cdef int32_t sc[MAX_P * NSCORE]
    if s.options & OPT_INTERMEDIATE and not pl.inter_done:
        score_all(s, sc)
        pl.inter_done = 1
        # cards only: no Concordia card, no special squares (ruling 37)
        pl.inter_vp = sc[p * NSCORE + 0] + sc[p * NSCORE + 1] + sc[p * NSCORE + 2] + \
            sc[p * NSCORE + 3] + sc[p * NSCORE + 4] + sc[p * NSCORE + 5]
        for q in range(s.n_players):
            n_done += s.pl[q].inter_done
        if n_done == s.n_players and not s.inter_paid:
            s.inter_paid = 1
            for q in range(s.n_players):
                rank = 1
                for p in range(s.n_players):
                    if s.pl[p].inter_vp > s.pl[q].inter_vp:
                        rank += 1
                if rank == 1:
                    s.pl[q].coins += 2
                elif rank == 2:
                    s.pl[q].coins += 1
    end_turn(s)


cdef int pending_square(const State* s, int p, int* n_lines, int* line) noexcept nogil:
    """Aegyptus: the first special square that p has no colonist on but own sea colonists on lines to.
    Returns it (else -1), with the number of distinct such lines and the first of them."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef const Player* pl = &s.pl[p]
    cdef int i, j, k, r, sq, has, dup, n
    for i in range(3, NCOL):
        if pl.col[i] < ROUTE_BASE:
            continue
        r = pl.col[i] - ROUTE_BASE
        sq = b.route_square[r]
        if sq < 0:
            continue
        has = 0
        n = 0
        for j in range(3, NCOL):
            if pl.col[j] == sq:
                has = 1
            elif pl.col[j] >= ROUTE_BASE and b.route_square[pl.col[j] - ROUTE_BASE] == sq:
                dup = 0
                for k in range(3, j):
                    if pl.col[k] == pl.col[j]:
                        dup = 1
                n += 1 - dup
        if has:
            continue
        n_lines[0] = n
        line[0] = r
        return sq
    return -1


cdef void enter_square(State* s, int p, int r) noexcept nogil:
    """The first own sea colonist on line r moves onto the square at its end."""
    cdef Player* pl = &s.pl[p]
    cdef int i
    for i in range(3, NCOL):
        if pl.col[i] == ROUTE_BASE + r:
            s.route_occ[r] -= 1
            pl.col[i] = g_boards[s.board_id].route_square[r]
            return


cdef void finish_architect(State* s) noexcept nogil:
    """Aegyptus: a sea colonist on a line to FRANKINCENSE or GOLD moves onto the square (one per player).
    With own colonists on several lines to one square the player chooses which line (PH_SQUARE, ruling E1);
    colonists on the same line are alike, so one line asks nothing."""
    cdef int p = s.turn_player, sq, n, r
    while True:
        sq = pending_square(s, p, &n, &r)
        if sq < 0:
            break
        if n > 1:
            s.phase = PH_SQUARE
            s.decider = p
            return
        enter_square(s, p, r)
    end_turn(s)


cdef void resolve_card(State* s, int k) noexcept nogil:
    cdef int p = s.turn_player
    cdef Player* pl = &s.pl[p]
    cdef int act = g_rules.kind_action[k], n, i, g
    s.act_kind = k
    s.decider = p
    if act == C_TRIBUNE:
        n = 0
        for i in range(g_rules.n_kinds):
            n += pl.discard[i]
            pl.hand[i] += pl.discard[i]
            pl.discard[i] = 0
        pl.top = -1
        if n > 3:
            pl.coins += n - 3
        if can_pay(pl, g_rules.colonist_cost) and (stored_of_type(pl, 0) >= 0 or stored_of_type(pl, 1) >= 0):
            s.phase = PH_TRIBUNE
        else:
            finish_tribune(s)
    elif act == C_ARCHITECT:
        s.steps = on_board(pl)
        s.moved = 0
        s.pick_last = -1
        s.phase = PH_ARCH_MOVE
    elif act == C_PREFECT:
        s.phase = PH_PREFECT
    elif act == C_MERCATOR:
        pl.coins += g_rules.kind_coins[k]
        s.merc_sold_last = -1
        s.merc_bought_last = -1
        s.merc_kinds = 0
        s.merc_sold_mask = 0
        s.phase = PH_MERCATOR
    elif act == C_DIPLOMAT:
        s.phase = PH_DIPLOMAT
        if not has_copy_target(s):
            end_turn(s)
    elif act == C_SENATOR:
        s.buys = 0
        s.pick_last = -1
        s.phase = PH_SENATOR
    elif act == C_CONSUL:
        s.buys = 0
        s.phase = PH_CONSUL
    elif act == C_COLONIST:
        s.col_last = 0
        s.col_cash_ok = 1
        s.phase = PH_COLONIST
    else:
        # a specialist: each own house in a city of its good produces one unit, one kind so never a choice
        g = g_rules.kind_good[k]
        memset(s.pend, 0, sizeof(s.pend))
        s.pend[p][g] = pl.houses_by_good[g]
        start_gains(s)


cdef bint has_copy_target(const State* s) noexcept nogil:
    cdef int q, t
    for q in range(s.n_players):
        if q == s.turn_player:
            continue
        t = s.pl[q].top
        if t >= 0 and g_rules.kind_action[t] != C_DIPLOMAT:
            return True
    return False


cdef void produce(State* s, int pv, int chosen) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int p = s.turn_player, q, c, g, amount = 1, i
    memset(s.pend, 0, sizeof(s.pend))
    g = chosen if pv == b.variable_province else s.marker_good[pv]
    if s.pm_holder == p:
        # the Praefectus Magnus doubles the bonus only, then passes to the right
        amount = 2
        s.pm_holder = (p + s.n_players - 1) % s.n_players
    s.pend[p][g] += amount
    for c in range(b.n_cities):
        if b.city_province[c] != pv or s.city_houses[c] == 0:
            continue
        for q in range(s.n_players):
            if s.pl[q].houses >> c & 1:
                s.pend[q][s.city_good[c]] += 1
    if b.n_nile > 0 and b.nile[s.nile_pos] == pv:
        s.pend[p][FOOD] += 1
        s.nile_pos = (s.nile_pos + 1) % b.n_nile
    if b.frank_provinces >> pv & 1:
        for q in range(s.n_players):
            for i in range(3, NCOL):
                if s.pl[q].col[i] == b.frank_square:
                    s.pl[q].coins += b.frank_coins
    s.marker_coin[pv] = 1
    s.marker_good[pv] = g
    start_gains(s)


cdef void cash_bonus(State* s) noexcept nogil:
    cdef const Board* b = &g_boards[s.board_id]
    cdef int pv, total = b.cash_extra
    for pv in range(b.n_provinces):
        if s.marker_coin[pv]:
            total += g_rules.marker_coins[s.marker_good[pv]]
            s.marker_coin[pv] = 0
            if pv == b.variable_province:
                s.marker_good[pv] = -1
    s.pl[s.turn_player].coins += total
    end_turn(s)
