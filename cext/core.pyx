# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Concordia rules core.

Everything that runs per step lives here as nogil C functions over a fixed-size `State` struct:
legal sub-decisions, apply, chance, scoring, random playouts. The Python face (`concordia_ai.game`)
crosses into this module once per call, never per step of a playout.

A turn is a sequence of sub-decisions (see core.pxd for the action encoding). Where the same outcome
could be reached through several orders of sub-decisions, the generator allows one canonical order
(see docs/engine.md, "Canonical orders"), so the search sees each outcome once. Tests can switch the
canonical orders off (`set_all_orders`) to check that no outcome is lost.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.time cimport clock, CLOCKS_PER_SEC

include "core_types.pxi"

cdef Rules g_rules
cdef Board g_boards[8]
cdef int g_rules_ready = 0
cdef int g_board_ready[8]
cdef int g_all_orders = 0    # tests only: offer every order of the sub-decisions, not just the canonical one

NO_GOOD = 255
CHANCE = DECIDER_CHANCE
NOBODY = DECIDER_NONE
ROUTE_OFFSET = ROUTE_BASE
STORE = LOC_STORE
MAX_PLAYERS = MAX_P
N_SCORE_COLUMNS = NSCORE
PHASES = {PH_PLAY: "play", PH_DIPLOMAT: "diplomat", PH_TRIBUNE: "tribune", PH_ARCH_MOVE: "architect-move",
          PH_ARCH_BUILD: "architect-build", PH_PREFECT: "prefect", PH_MERCATOR: "mercator",
          PH_SENATOR: "senator", PH_CONSUL: "consul", PH_COLONIST: "colonist", PH_KEEP: "keep",
          PH_CHANCE: "chance", PH_OVER: "over", PH_SQUARE: "square"}
ACTION_TYPES = {A_PLAY: "play", A_COPY: "copy", A_DONE: "done", A_TRIB_COL: "tribune-colonist",
                A_MOVE: "move", A_BUILD: "build", A_PRODUCE: "produce", A_CASH: "cash", A_KEEP: "keep",
                A_SELL: "sell", A_BUY: "buy", A_CARD: "card", A_PLACE: "place", A_COLCASH: "colonist-cash",
                A_REVEAL: "reveal", A_ENTER: "enter"}
CARD_ACTIONS = {"Tribune": C_TRIBUNE, "Architect": C_ARCHITECT, "Prefect": C_PREFECT, "Mercator": C_MERCATOR,
                "Diplomat": C_DIPLOMAT, "Senator": C_SENATOR, "Colonist": C_COLONIST, "Consul": C_CONSUL}
OPTION_WINE_VARIANT = OPT_WINE_VARIANT
OPTION_INTERMEDIATE = OPT_INTERMEDIATE


# ---------------------------------------------------------------- random numbers

cdef uint64_t rng_next(uint64_t* r) noexcept nogil:
    # xorshift64*: tiny state, fast, good enough for shuffles and playouts
    cdef uint64_t x = r[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    r[0] = x
    return x * <uint64_t>2685821657736338717ULL


cdef uint32_t rng_below(uint64_t* r, uint32_t n) noexcept nogil:
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef uint64_t seed_mix(uint64_t x) noexcept nogil:
    # splitmix64: spreads nearby seeds apart and never returns the forbidden all-zero xorshift state
    x += <uint64_t>0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    x = x ^ (x >> 31)
    if x == 0:
        x = 1
    return x


# ---------------------------------------------------------------- small helpers

cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int popcount64(uint64_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int colonist_is_sea(int i) noexcept nogil:
    return i >= 3


cdef inline int on_board(const Player* pl) noexcept nogil:
    cdef int i, n = 0
    for i in range(NCOL):
        if pl.col[i] != LOC_STORE:
            n += 1
    return n


cdef inline int free_space(const Player* pl) noexcept nogil:
    cdef int i, used = 0
    for i in range(NGOODS):
        used += pl.goods[i]
    for i in range(NCOL):
        if pl.col[i] == LOC_STORE:
            used += 1
    return g_rules.slots - used


cdef inline int stored_of_type(const Player* pl, int sea) noexcept nogil:
    cdef int i
    for i in range(3 * sea, 3 * sea + 3):
        if pl.col[i] == LOC_STORE:
            return i
    return -1


cdef inline bint can_pay(const Player* pl, const int8_t* need) noexcept nogil:
    cdef int g
    for g in range(NGOODS):
        if pl.goods[g] < need[g]:
            return False
    return True


cdef inline void pay(Player* pl, const int8_t* need) noexcept nogil:
    cdef int g
    for g in range(NGOODS):
        pl.goods[g] -= need[g]


cdef inline int dist_to(const Board* b, int loc, int r) noexcept nogil:
    if loc >= ROUTE_BASE:
        return b.dist_rr[loc - ROUTE_BASE][r]
    return b.dist_cr[loc][r]


cdef inline int on_square(const Board* b, int loc) noexcept nogil:
    return loc >= 0 and loc < ROUTE_BASE and b.city_special[loc]


cdef inline int display_count(const State* s) noexcept nogil:
    cdef int i, n = 0
    for i in range(DISPLAY):
        if s.display[i] >= 0:
            n += 1
    return n


cdef inline int variant(const State* s) noexcept nogil:
    return 1 if s.options & OPT_WINE_VARIANT else 0


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


# ---------------------------------------------------------------- registration (content -> arrays)

def register_rules(dict d):
    """Load the compiled game rules (see concordia_ai.engine.vocabulary)."""
    global g_rules_ready
    cdef int i, j, g
    memset(&g_rules, 0, sizeof(Rules))
    for g in range(NGOODS):
        g_rules.price[g] = d["price"][g]
        g_rules.house_coins[g] = d["house_coins"][g]
        g_rules.colonist_cost[g] = d["colonist_cost"][g]
        g_rules.marker_coins[g] = d["marker_coins"][g]
        g_rules.start_goods[g] = d["start_goods"][g]
        for j in range(NGOODS):
            g_rules.house_goods[g][j] = d["house_goods"][g][j]
    for i in range(2):
        for j in range(DISPLAY):
            g_rules.surcharge_any[i][j] = d["surcharge_any"][i][j]
            for g in range(NGOODS):
                g_rules.surcharge[i][j][g] = d["surcharge"][i][j][g]
    kinds = d["kinds"]
    if len(kinds) > MAX_KINDS:
        raise ValueError("too many card kinds")
    g_rules.n_kinds = len(kinds)
    for i, kd in enumerate(kinds):
        g_rules.kind_action[i] = kd["action"]
        g_rules.kind_god[i] = kd["god"]
        g_rules.kind_coins[i] = kd["coins"]
        g_rules.kind_good[i] = kd["good"]
        g_rules.kind_minerva[i] = kd["minerva"]
        g_rules.start_hand[i] = d["start_hand"][i]
    market = d["market"]
    if len(market) > MAX_MARKET:
        raise ValueError("too many market cards")
    g_rules.n_market = len(market)
    for i, mc in enumerate(market):
        g_rules.card_kind[i] = mc["kind"]
        g_rules.card_deck[i] = mc["deck"]
        for g in range(NGOODS):
            g_rules.card_cost[i][g] = mc["cost"][g]
    for i in range(MAX_P):
        g_rules.coins_by_seat[i] = d["coins_by_seat"][i]
    for i in range(4):
        for g in range(NGOODS):
            g_rules.tokens[i][g] = d["tokens"][i][g]
    g_rules.houses = d["houses"]
    g_rules.slots = d["slots"]
    g_rules.concordia_vp = d["concordia_vp"]
    g_rules_ready = 1


def register_board(int board_id, dict d):
    """Load one compiled board and precompute the step distances the Architect needs."""
    cdef Board* b
    cdef int i, j, c, r, q, changed, a, e
    if not 0 <= board_id < 8:
        raise ValueError("board id out of range")
    if d["n_cities"] > 64 or d["n_cities"] > MAX_CITIES or len(d["routes"]) > MAX_ROUTES \
            or d["n_provinces"] > MAX_PROV:
        raise ValueError("board too large for the core")
    _check_board_indices(d)
    b = &g_boards[board_id]
    memset(b, 0, sizeof(Board))
    b.n_cities = d["n_cities"]
    b.start_city = d["start_city"]
    b.n_provinces = d["n_provinces"]
    for c in range(b.n_cities):
        b.city_province[c] = d["city_province"][c]
        b.city_letter[c] = d["city_letter"][c]
        b.city_special[c] = d["city_special"][c]
        if b.city_province[c] >= 0:
            b.province_mask[b.city_province[c]] |= (<uint64_t>1) << c
    b.n_routes = len(d["routes"])
    for r, (a, e, sea, cap) in enumerate(d["routes"]):
        b.route_a[r] = a
        b.route_b[r] = e
        b.route_sea[r] = sea
        b.route_cap[r] = cap
        b.route_ends[r] = ((<uint64_t>1) << a) | ((<uint64_t>1) << e)
        b.route_square[r] = a if b.city_special[a] else (e if b.city_special[e] else -1)
    # route-to-route distances: a step passes through a shared end city that is a real city
    for r in range(MAX_ROUTES):
        for q in range(MAX_ROUTES):
            b.dist_rr[r][q] = 0 if r == q else 255
    changed = 1
    while changed:
        changed = 0
        for r in range(b.n_routes):
            for q in range(b.n_routes):
                if r == q or b.route_sea[r] != b.route_sea[q] or b.dist_rr[r][q] == 1:
                    continue
                if _routes_touch(b, r, q):
                    b.dist_rr[r][q] = 1
                    changed = 1
    changed = 1
    while changed:
        changed = 0
        for r in range(b.n_routes):
            for q in range(b.n_routes):
                if b.dist_rr[r][q] != 1:
                    continue
                for j in range(b.n_routes):
                    if b.dist_rr[q][j] < 255 and b.dist_rr[r][j] > 1 + b.dist_rr[q][j]:
                        b.dist_rr[r][j] = 1 + b.dist_rr[q][j]
                        changed = 1
    for c in range(MAX_CITIES):
        for r in range(MAX_ROUTES):
            b.dist_cr[c][r] = 255
    for c in range(b.n_cities):
        if b.city_special[c]:
            continue
        for q in range(b.n_routes):
            if not (b.route_ends[q] >> c & 1):
                continue
            for r in range(b.n_routes):
                if b.route_sea[r] == b.route_sea[q] and b.dist_rr[q][r] < 255 and b.dist_cr[c][r] > 1 + b.dist_rr[q][r]:
                    b.dist_cr[c][r] = 1 + b.dist_rr[q][r]
    b.variable_province = d.get("variable_province", -1)
    b.cash_extra = d.get("cash_extra", 0)
    nile = d.get("nile", [])
    b.n_nile = len(nile)
    for i, pv in enumerate(nile):
        b.nile[i] = pv
    b.frank_provinces = 0
    for pv in d.get("frank_provinces", []):
        b.frank_provinces |= 1 << pv
    b.frank_square = d.get("frank_square", -1)
    b.gold_square = d.get("gold_square", -1)
    b.frank_coins = d.get("frank_coins", 0)
    b.square_vp = d.get("square_vp", 0)
    g_board_ready[board_id] = 1


def _check_board_indices(dict d):
    """Every index of a board within the arrays it will be written to (a bad board is refused, never
    written past an array): cities, provinces, routes, the Nile order and the special squares."""
    nc, npv = d["n_cities"], d["n_provinces"]
    if not 1 <= nc <= MAX_CITIES or not 1 <= npv <= MAX_PROV:
        raise ValueError(f"board: {nc} cities and {npv} provinces; at most {MAX_CITIES} and {MAX_PROV}")

    def index(v, lo, hi, what):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"board: {what} {v!r} is not in {lo}..{hi}")

    index(d["start_city"], 0, nc - 1, "start_city")
    for key, lo, hi in (("city_province", -1, npv - 1), ("city_letter", -1, 3), ("city_special", 0, 1)):
        vals = d[key]
        if len(vals) < nc:
            raise ValueError(f"board: {key} lists {len(vals)} of {nc} cities")
        for c in range(nc):
            index(vals[c], lo, hi, f"{key}[{c}]")
    for r, route in enumerate(d["routes"]):
        if len(route) != 4:
            raise ValueError(f"board: routes[{r}] is not (a, b, sea, cap)")
        index(route[0], 0, nc - 1, f"routes[{r}] end")
        index(route[1], 0, nc - 1, f"routes[{r}] end")
        index(route[2], 0, 1, f"routes[{r}] sea")
        index(route[3], 0, 127, f"routes[{r}] capacity")
    nile = d.get("nile", [])
    if len(nile) > 8:
        raise ValueError(f"board: the Nile order lists {len(nile)} provinces; at most 8")
    for i, pv in enumerate(nile):
        index(pv, 0, npv - 1, f"nile[{i}]")
    for pv in d.get("frank_provinces", []):
        index(pv, 0, min(npv, 32) - 1, "frank_provinces entry")
    index(d.get("variable_province", -1), -1, npv - 1, "variable_province")
    for key in ("frank_square", "gold_square"):
        index(d.get(key, -1), -1, nc - 1, key)
    for key in ("cash_extra", "frank_coins", "square_vp"):
        index(d.get(key, 0), 0, 127, key)


cdef bint _routes_touch(const Board* b, int r, int q):
    cdef uint64_t shared = b.route_ends[r] & b.route_ends[q]
    cdef int c
    for c in range(b.n_cities):
        if shared >> c & 1 and not b.city_special[c]:
            return True
    return False


def _require_board(int board_id):
    if not 0 <= board_id < 8 or not g_board_ready[board_id] or not g_rules_ready:
        raise ValueError(f"board {board_id} is not registered")


cdef _require_game(CoreState st):
    """States made with CoreState() rather than new()/load() hold no game: refuse them."""
    if st.s.n_players < 2 or not g_board_ready[st.s.board_id]:
        raise ValueError("an empty state: make states with CoreState.new() or CoreState.load()")


def board_distances(int board_id):
    """(route-to-route, city-to-route) step tables, for tests and tools."""
    _require_board(board_id)
    cdef const Board* b = &g_boards[board_id]
    rr = [[b.dist_rr[r][q] for q in range(b.n_routes)] for r in range(b.n_routes)]
    cr = [[b.dist_cr[c][r] for r in range(b.n_routes)] for c in range(b.n_cities)]
    return rr, cr


def set_all_orders(bint on):
    """Tests only: offer every order of a turn's sub-decisions instead of the canonical one (the reference
    that the canonical orders lose no outcome). Affects every state of the process."""
    global g_all_orders
    g_all_orders = on


def decode(int a):
    """(type, a, b) of an action integer."""
    return a & 255, (a >> 8) & 255, (a >> 16) & 255


def encode(int t, int x=0, int y=0):
    return t | x << 8 | y << 16


# ---------------------------------------------------------------- the Python face of a state

cdef class CoreState:
    """One game state. Python-facing methods validate; the nogil functions above trust."""
    cdef State s

    @staticmethod
    def new(int board_id, int n_players, seed, int options=0):
        if not g_rules_ready or not 0 <= board_id < 8 or not g_board_ready[board_id]:
            raise ValueError("rules or board not registered")
        if not 2 <= n_players <= MAX_P:
            raise ValueError("players must be 2..5")
        cdef CoreState st = CoreState.__new__(CoreState)
        init_state(&st.s, board_id, n_players, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF), options)
        return st

    def __reduce__(self):
        # pickled through its fields (worker processes of root-parallel searches and tournaments)
        return (_restore_state, (self.export(),))

    def copy(self):
        cdef CoreState st = CoreState.__new__(CoreState)
        memcpy(&st.s, &self.s, sizeof(State))
        return st

    def __eq__(self, other):
        if not isinstance(other, CoreState):
            return NotImplemented
        return self.export() == (<CoreState>other).export()

    def legal_actions(self):
        cdef int32_t buf[MAX_ACTIONS]
        cdef int n = gen_legal(&self.s, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, int a):
        """Offered by legal_actions(), or `play` of a Diplomat kind the generator folds into one."""
        cdef int32_t buf[MAX_ACTIONS]
        cdef int n = gen_legal(&self.s, buf), i
        for i in range(n):
            if buf[i] == a:
                return True
        return self.is_diplomat_alias(a)

    def is_diplomat_alias(self, int a):
        """`play` of any Diplomat kind in hand: it plays like the one `legal_actions` offers (the god scores
        the same in hand or on the pile), and lets a tracked game discard the card really laid down."""
        cdef int x = (a >> 8) & 255
        return (a & 255) == A_PLAY and a >> 16 == 0 and self.s.phase == PH_PLAY and x < g_rules.n_kinds \
            and g_rules.kind_action[x] == C_DIPLOMAT and self.s.pl[self.s.turn_player].hand[x] > 0

    def apply(self, int a):
        if not self.is_legal(a):
            raise ValueError(f"illegal action {a}")
        apply_action(&self.s, a)

    @property
    def decider(self):
        return self.s.decider

    @property
    def phase(self):
        return self.s.phase

    @property
    def phase_name(self):
        return PHASES.get(self.s.phase, "?")

    @property
    def turn_player(self):
        return self.s.turn_player

    @property
    def n_players(self):
        return self.s.n_players

    @property
    def board_id(self):
        return self.s.board_id

    @property
    def is_over(self):
        return self.s.phase == PH_OVER

    @property
    def turns(self):
        return self.s.turns

    def colonist_location(self, int seat, int i):
        """Where colonist i (0-2 land, 3-5 sea) of `seat` stands: LOC_STORE, a city, or ROUTE_BASE + route."""
        if not 0 <= seat < self.s.n_players or not 0 <= i < NCOL:
            raise ValueError("no such colonist")
        return self.s.pl[seat].col[i]

    def display_card(self, int slot):
        """The market card id in display slot 0..6, or -1 for a gap."""
        if not 0 <= slot < DISPLAY:
            raise ValueError("no such display slot")
        return self.s.display[slot]

    def scores(self):
        """Per player [Vesta, Jupiter, Saturnus, Mercurius, Mars, Minerva, Concordia, Squares, Total]."""
        cdef int32_t sc[MAX_P * NSCORE]
        score_all(&self.s, sc)
        return [[sc[p * NSCORE + j] for j in range(NSCORE)] for p in range(self.s.n_players)]

    def ranking(self):
        cdef int32_t sc[MAX_P * NSCORE]
        cdef int8_t order[MAX_P]
        score_all(&self.s, sc)
        ranking(&self.s, sc, order)
        return [order[i] for i in range(self.s.n_players)]

    def invariant_errors(self):
        return invariant_errors(&self.s)

    def random_playout(self, seed, int max_steps=1000000):
        """Play uniformly random sub-decisions to the end (or max_steps); returns the steps taken."""
        cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        cdef int n
        with nogil:
            n = random_playout(&self.s, &r, max_steps)
        return n

    def shuffle_hidden(self, seed):
        cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        shuffle_hidden(&self.s, &r)

    def set_chance(self, bint order_known, bint external):
        """How stack reveals are resolved: the stored true order, sampling from the state's RNG, or from outside."""
        self.s.order_known = order_known
        self.s.chance_external = external
        if self.s.phase == PH_CHANCE and not external:
            refill(&self.s)

    def reseed(self, seed):
        self.s.rng = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))

    # ---- raw fields: the position layer (concordia_ai.position) validates meaning; these check bounds
    def export(self):
        cdef const Board* b = &g_boards[self.s.board_id]
        cdef State* s = &self.s
        players = []
        for p in range(s.n_players):
            pl = &s.pl[p]
            players.append(dict(
                coins=pl.coins, goods=[pl.goods[g] for g in range(NGOODS)],
                colonists=[pl.col[i] for i in range(NCOL)],
                hand=[pl.hand[k] for k in range(g_rules.n_kinds)],
                discard=[pl.discard[k] for k in range(g_rules.n_kinds)],
                top=pl.top, houses=[c for c in range(b.n_cities) if pl.houses >> c & 1],
                inter_done=pl.inter_done, inter_vp=pl.inter_vp))
        return dict(
            board=s.board_id, n_players=s.n_players, options=s.options, phase=s.phase, decider=s.decider,
            turn_player=s.turn_player, pm_holder=s.pm_holder, order_known=s.order_known,
            chance_external=s.chance_external,
            city_good=[s.city_good[c] for c in range(b.n_cities)],
            marker_coin=[s.marker_coin[v] for v in range(b.n_provinces)],
            marker_good=[s.marker_good[v] for v in range(b.n_provinces)],
            display=[s.display[i] for i in range(DISPLAY)],
            stack=[s.stack[i] for i in range(s.stack_len)], nile_pos=s.nile_pos,
            act_kind=s.act_kind, steps=s.steps, moved=s.moved,
            arch_from=[s.arch_from[i] for i in range(NCOL)],
            pick_last=s.pick_last, merc_sold_last=s.merc_sold_last,
            merc_bought_last=s.merc_bought_last, merc_kinds=s.merc_kinds, merc_sold_mask=s.merc_sold_mask,
            buys=s.buys, col_last=s.col_last, col_cash_ok=s.col_cash_ok, keep_player=s.keep_player,
            keep_last=s.keep_last, pend=[[s.pend[p][g] for g in range(NGOODS)] for p in range(s.n_players)],
            end_player=s.end_player, end_this_turn=s.end_this_turn, final_turns=s.final_turns,
            inter_paid=s.inter_paid, turns=s.turns, rng=s.rng, players=players)

    @staticmethod
    def load(d):
        """Build a state from `export()`-shaped fields. Every index is range-checked (never a crash);
        derived counters are recomputed, not trusted."""
        cdef CoreState st = CoreState.__new__(CoreState)
        cdef State* s = &st.s
        cdef const Board* b
        memset(s, 0, sizeof(State))
        if not isinstance(d, dict):
            raise ValueError("position: an object of fields")
        bid = _int(d, "board", 0, 7)
        if not g_board_ready[bid]:
            raise ValueError("board: not registered")
        b = &g_boards[bid]
        s.board_id = bid
        n = s.n_players = _int(d, "n_players", 2, MAX_P)
        s.options = _int(d, "options", 0, 3)
        s.phase = _int(d, "phase", PH_PLAY, PH_SQUARE)
        s.decider = _int(d, "decider", DECIDER_CHANCE, n - 1)
        s.turn_player = _int(d, "turn_player", 0, n - 1)
        s.pm_holder = _int(d, "pm_holder", 0, n - 1)
        s.order_known = _int(d, "order_known", 0, 1)
        s.chance_external = _int(d, "chance_external", 0, 1)
        for c in range(MAX_CITIES):
            s.city_good[c] = -1
        vals = _list(d, "city_good", b.n_cities)
        for c in range(b.n_cities):
            s.city_good[c] = _val(vals[c], "city_good", -1, NGOODS - 1)
            if s.city_good[c] < 0 and b.city_letter[c] >= 0:
                raise ValueError(f"city_good[{c}]: a city with a token letter needs a good")
        vals = _list(d, "marker_coin", b.n_provinces)
        for v in range(b.n_provinces):
            s.marker_coin[v] = _val(vals[v], "marker_coin", 0, 1)
        vals = _list(d, "marker_good", b.n_provinces)
        for v in range(b.n_provinces):
            s.marker_good[v] = _val(vals[v], "marker_good", -1, NGOODS - 1)
            if s.marker_good[v] < 0 and (v != b.variable_province or s.marker_coin[v]):
                raise ValueError(f"marker_good[{v}]: needs a good")
        vals = _list(d, "display", DISPLAY)
        for i in range(DISPLAY):
            s.display[i] = _val(vals[i], "display", -1, g_rules.n_market - 1)
        vals = d.get("stack")
        if not isinstance(vals, list) or len(vals) > g_rules.n_market:
            raise ValueError("stack: a list of market card ids")
        s.stack_len = len(vals)
        for i in range(s.stack_len):
            s.stack[i] = _val(vals[i], "stack", 0, g_rules.n_market - 1)
        seen = [c for c in list(vals) + [x for x in d["display"] if x >= 0]]
        if len(set(seen)) != len(seen):
            raise ValueError("display/stack: a market card appears twice")
        for i in range(1, s.stack_len):
            if g_rules.card_deck[s.stack[i]] > g_rules.card_deck[s.stack[i - 1]]:
                raise ValueError("stack: decks out of order (the lowest numeral must be on top)")
        s.nile_pos = _int(d, "nile_pos", 0, max(0, b.n_nile - 1))
        s.act_kind = _int(d, "act_kind", -1, g_rules.n_kinds - 1)
        s.steps = _int(d, "steps", 0, NCOL)
        s.moved = _int(d, "moved", 0, 63)
        # optional, so positions written before these fields load: a moved colonist then counts as having
        # started where it stands
        starts = d.get("arch_from", [LOC_STORE] * NCOL)
        if not isinstance(starts, list) or len(starts) != NCOL:
            raise ValueError(f"arch_from: a list of {NCOL} places")
        s.pick_last = _val(d.get("pick_last", -1), "pick_last", -1, 63)
        s.merc_sold_last = _int(d, "merc_sold_last", -1, NGOODS - 1)
        s.merc_bought_last = _int(d, "merc_bought_last", -1, NGOODS - 1)
        s.merc_kinds = _int(d, "merc_kinds", 0, 2)
        s.merc_sold_mask = _int(d, "merc_sold_mask", 0, 31)
        s.buys = _int(d, "buys", 0, 2)
        s.col_last = _int(d, "col_last", 0, 2 * MAX_CITIES)
        s.col_cash_ok = _int(d, "col_cash_ok", 0, 1)
        s.keep_player = _int(d, "keep_player", 0, n - 1)
        s.keep_last = _int(d, "keep_last", 0, NGOODS - 1)
        vals = _list(d, "pend", n)
        for p in range(n):
            row = vals[p]
            if not isinstance(row, list) or len(row) != NGOODS:
                raise ValueError(f"pend[{p}]: a list of {NGOODS} counts")
            for g in range(NGOODS):
                s.pend[p][g] = _val(row[g], "pend", 0, 60)
        s.end_player = _int(d, "end_player", -1, n - 1)
        s.end_this_turn = _int(d, "end_this_turn", 0, 1)
        s.final_turns = _int(d, "final_turns", 0, n - 1)
        s.inter_paid = _int(d, "inter_paid", 0, 1)
        s.turns = _int(d, "turns", 0, 1 << 30)
        rng = d.get("rng", 1)
        if not isinstance(rng, int) or not 0 < rng < (1 << 64):
            raise ValueError("rng: a positive 64-bit integer")
        s.rng = rng
        players = _list(d, "players", n)
        for p in range(n):
            _load_player(&s.pl[p], players[p], p, b)
        for i in range(NCOL):
            s.arch_from[i] = _val(starts[i], "arch_from", -1, ROUTE_BASE + b.n_routes - 1)
            if 0 <= s.arch_from[i] < ROUTE_BASE and s.arch_from[i] >= b.n_cities:
                raise ValueError(f"arch_from[{i}]: no such city {s.arch_from[i]}")
            if s.phase == PH_ARCH_MOVE and s.moved >> i & 1 and s.arch_from[i] == LOC_STORE:
                s.arch_from[i] = s.pl[s.turn_player].col[i]
        recompute_derived(s)
        for p in range(n):
            if s.pl[p].n_houses > g_rules.houses:
                raise ValueError(f"players[{p}].houses: more than {g_rules.houses}")
            if free_space(&s.pl[p]) < 0:
                raise ValueError(f"players[{p}]: storehouse over {g_rules.slots} spaces")
        for r in range(b.n_routes):
            # the canonical movement never leaves two colonists on a route, not even halfway
            if b.route_cap[r] and s.route_occ[r] > 1:
                raise ValueError(f"route {r}: holds {s.route_occ[r]} colonists")
        if _legal_count(s) == 0 and s.phase != PH_OVER:
            raise ValueError("phase: no legal move in this state")
        return st


def _restore_state(d):
    # a fresh worker process has registered nothing yet: the content layer registers on first use
    from concordia_ai.engine import vocabulary
    vocabulary.board_by_id(d["board"])
    return CoreState.load(d)


cdef int _legal_count(State* s):
    cdef int32_t buf[MAX_ACTIONS]
    return gen_legal(s, buf)


cdef _load_player(Player* pl, object d, int p, const Board* b):
    where = f"players[{p}]"
    if not isinstance(d, dict):
        raise ValueError(f"{where}: an object")
    pl.coins = _val(d.get("coins"), where + ".coins", 0, 1 << 30)
    vals = _list(d, "goods", NGOODS, where)
    for g in range(NGOODS):
        pl.goods[g] = _val(vals[g], where + ".goods", 0, g_rules.slots)
    vals = _list(d, "colonists", NCOL, where)
    for i in range(NCOL):
        loc = _val(vals[i], where + ".colonists", -1, ROUTE_BASE + b.n_routes - 1)
        if 0 <= loc < ROUTE_BASE and loc >= b.n_cities:
            raise ValueError(f"{where}.colonists[{i}]: no such city {loc}")
        if loc >= ROUTE_BASE and b.route_sea[loc - ROUTE_BASE] != colonist_is_sea(i):
            raise ValueError(f"{where}.colonists[{i}]: on a route of the other kind")
        if 0 <= loc < ROUTE_BASE and b.city_special[loc] and not colonist_is_sea(i):
            raise ValueError(f"{where}.colonists[{i}]: only sea colonists reach a special square")
        if 0 <= loc < ROUTE_BASE and b.city_special[loc] and loc in [pl.col[j] for j in range(3, i)]:
            raise ValueError(f"{where}.colonists[{i}]: a second colonist on a special square")
        pl.col[i] = loc
    vals = _list(d, "hand", g_rules.n_kinds, where)
    for k in range(g_rules.n_kinds):
        pl.hand[k] = _val(vals[k], where + ".hand", 0, 30)
    vals = _list(d, "discard", g_rules.n_kinds, where)
    for k in range(g_rules.n_kinds):
        pl.discard[k] = _val(vals[k], where + ".discard", 0, 30)
    pl.top = _val(d.get("top", -1), where + ".top", -1, g_rules.n_kinds - 1)
    if pl.top >= 0 and pl.discard[pl.top] == 0:
        raise ValueError(f"{where}.top: that card is not on the discard pile")
    houses = d.get("houses")
    if not isinstance(houses, list):
        raise ValueError(f"{where}.houses: a list of cities")
    pl.houses = 0
    for c in houses:
        c = _val(c, where + ".houses", 0, b.n_cities - 1)
        if pl.houses >> c & 1:
            raise ValueError(f"{where}.houses: city {c} listed twice")
        if c == b.start_city or b.city_special[c]:
            raise ValueError(f"{where}.houses: no house can stand in city {c}")
        pl.houses |= (<uint64_t>1) << c
    pl.inter_done = _val(d.get("inter_done", 0), where + ".inter_done", 0, 1)
    pl.inter_vp = _val(d.get("inter_vp", 0), where + ".inter_vp", 0, 30000)


def _val(v, where, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{where}: {v!r} is not an integer in {lo}..{hi}")
    return v


def _int(d, key, lo, hi):
    return _val(d.get(key), key, lo, hi)


def _list(d, key, n, where=""):
    v = d.get(key)
    name = f"{where}.{key}" if where else key
    if not isinstance(v, list) or len(v) != n:
        raise ValueError(f"{name}: a list of {n} entries")
    return v


# ---------------------------------------------------------------- benchmarks

def bench_random_games(int board_id, int n_players, int games, seed):
    """Full uniformly random games in C. Returns (steps, turns, cpu seconds)."""
    cdef State s
    cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef long long steps = 0, turns = 0
    cdef int g, n
    cdef double t0, t1
    _require_board(board_id)
    if not 2 <= n_players <= MAX_P:
        raise ValueError("bad player count")
    with nogil:
        t0 = clock()
        for g in range(games):
            init_state(&s, board_id, n_players, rng_next(&r), 0)
            n = random_playout(&s, &r, 1000000)
            steps += n
            turns += s.turns
        t1 = clock()
    return steps, turns, (t1 - t0) / CLOCKS_PER_SEC


def bench_copy(int board_id, int n_players, int reps):
    """CPU seconds for `reps` state copies and for `reps` legal-move generations at the opening."""
    cdef State s, t
    cdef int32_t buf[MAX_ACTIONS]
    cdef int i
    cdef long long acc = 0
    cdef double t0, t1, t2
    _require_board(board_id)
    if not 2 <= n_players <= MAX_P:
        raise ValueError("bad player count")
    init_state(&s, board_id, n_players, 1, 0)
    with nogil:
        t0 = clock()
        for i in range(reps):
            s.turns = i
            memcpy(&t, &s, sizeof(State))
            acc += t.turns + t.pl[i % MAX_P].coins
        t1 = clock()
        for i in range(reps):
            acc += gen_legal(&s, buf)
        t2 = clock()
    return (t1 - t0) / CLOCKS_PER_SEC, (t2 - t1) / CLOCKS_PER_SEC, acc, sizeof(State)


include "value.pxi"
include "search.pxi"
