# Included by core.pyx. Declarations: core.pxd.

# ---------------------------------------------------------------- apply

cdef void apply_action(State* s, int32_t a) noexcept nogil:
    """Apply a legal action (the caller guarantees legality)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef int t = a & 255, x = (a >> 8) & 255, y = (a >> 16) & 255
    cdef int p = s.turn_player, i, g, c, k, top, ph = s.phase, v, q, kept
    cdef Player* pl = &s.pl[p]
    cdef int8_t need[NGOODS]
    if t == A_PLAY:
        pl.hand[x] -= 1
        pl.discard[x] += 1
        pl.top = x
        resolve_card(s, x)
    elif t == A_COPY:
        resolve_card(s, x)
    elif t == A_DONE:
        if ph == PH_TRIBUNE:
            finish_tribune(s)
        elif ph == PH_ARCH_MOVE or ph == PH_ARCH_BUILD:
            finish_architect(s)
        elif ph == PH_SENATOR or ph == PH_CONSUL:
            refill(s)
        else:
            end_turn(s)
    elif t == A_TRIB_COL:
        pay(pl, g_rules.colonist_cost)
        pl.col[stored_of_type(pl, x)] = b.start_city
        finish_tribune(s)
    elif t == A_MOVE:
        s.arch_from[x] = pl.col[x]
        s.steps -= dist_to(b, pl.col[x], y)
        move_colonist(s, p, x, y)
        s.moved |= 1 << x
    elif t == A_BUILD:
        s.phase = PH_ARCH_BUILD
        s.pick_last = x
        pl.coins -= house_coin_cost(s, x)
        pay(pl, g_rules.house_goods[s.city_good[x]])
        pl.houses |= (<uint64_t>1) << x
        pl.n_houses += 1
        pl.houses_by_good[s.city_good[x]] += 1
        s.city_houses[x] += 1
        if pl.n_houses >= g_rules.houses:
            trigger_end(s, p)
    elif t == A_PRODUCE:
        produce(s, x, y)
    elif t == A_CASH:
        cash_bonus(s)
    elif t == A_KEEP:
        q = s.keep_player
        s.pl[q].goods[x] += 1
        s.pend[q][x] -= 1
        for g in range(x):
            s.pend[q][g] = 0
        s.keep_last = x
        if settle_gain(s, q):
            s.keep_last = 0
            s.keep_player = (q + 1) % s.n_players
            if s.keep_player == s.turn_player:
                end_turn(s)
            else:
                resolve_gains(s)
    elif t == A_SELL:
        pl.goods[x] -= y
        pl.coins += y * g_rules.price[x]
        s.merc_sold_last = x
        s.merc_sold_mask |= 1 << x
        s.merc_kinds += 1
    elif t == A_BUY:
        pl.goods[x] += y
        pl.coins -= y * g_rules.price[x]
        s.merc_bought_last = x
        s.merc_kinds += 1
    elif t == A_CARD:
        c = s.display[x]
        v = variant(s)
        for g in range(NGOODS):
            need[g] = g_rules.card_cost[c][g]
            if ph == PH_SENATOR:
                need[g] += g_rules.surcharge[v][x][g]
        if y < NGOODS:
            need[y] += 1
        pay(pl, need)
        pl.hand[g_rules.card_kind[c]] += 1
        s.display[x] = -1
        s.pick_last = x + 8 * (y + 1 if y < NGOODS else 0)     # the slot, and the good paid for 'any'

        s.buys += 1
        if ph == PH_CONSUL or s.buys >= 2:
            refill(s)
    elif t == A_PLACE:
        pay(pl, g_rules.colonist_cost)
        pl.col[stored_of_type(pl, x)] = y
        s.col_last = x * MAX_CITIES + y
        s.col_cash_ok = 0
    elif t == A_COLCASH:
        pl.coins += 5 + on_board(pl)
        end_turn(s)
    elif t == A_ENTER:
        enter_square(s, p, x)
        finish_architect(s)
    elif t == A_REVEAL:
        top = s.stack_len - 1
        for i in range(top + 1):
            if s.stack[i] == x:
                s.stack[i] = s.stack[top]
                s.stack[top] = x
                break
        # the revealed card fills the first gap (refill has closed the gaps); then ask for the next one
        s.display[display_count(s)] = x
        s.stack_len -= 1
        refill(s)
