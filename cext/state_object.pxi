# Included by core.pyx. Declarations: core.pxd.
import hashlib
from libc.stdint cimport int64_t

cdef enum:
    KEY_BYTES_MAX = 2048     # the packing needs at most about 600 bytes (5 players, 40 cities, 24 kinds)

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
        return self.key() == (<CoreState>other).key()

    def key(self):
        """The position's identity: 16 bytes, a BLAKE2b digest of a canonical packing of the State.

        It covers exactly the fields `export()` writes (so equal keys mean equal exports, and the key
        survives export/load and pickling): the whole table, every seat, the card in play and its scratch,
        the game end, the turn counter, the stack in its stored order, the RNG and the chance mode. Left
        out: the counters `recompute_derived` rebuilds from those fields (city_houses, route_occ, n_houses,
        houses_by_good), and array entries past the board's cities, provinces, the stack length, the card
        kinds and the player count, which are no part of the position."""
        cdef uint8_t buf[KEY_BYTES_MAX]
        cdef int n
        n = _pack_state(&self.s, buf)
        return hashlib.blake2b((<char*>buf)[:n], digest_size=16, person=b"concordia-pos-1").digest()

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

    @property
    def end_triggered(self):
        """The Concordia card is taken: the game ends after the other players' last turns."""
        return self.s.end_player >= 0

    @property
    def cards_left(self):
        """Market cards still to be bought: the face-down stack and the display (the horizon of the game:
        the game ends when the last display card is bought, or earlier when a player builds a 15th house)."""
        cdef int k, n = self.s.stack_len
        for k in range(DISPLAY):
            if self.s.display[k] >= 0:
                n += 1
        return n

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

    # ---- raw fields: the position layer (concordia_ai.engine.position) validates meaning; these check bounds
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


cdef inline int _put(uint8_t* buf, int n, int64_t v, int width) noexcept nogil:
    """v as `width` little-endian bytes (two's complement): the same bytes on every machine."""
    cdef int i
    for i in range(width):
        buf[n + i] = <uint8_t>((<uint64_t>v >> (8 * i)) & 255)
    return n + width


cdef int _pack_state(const State* s, uint8_t* buf) noexcept nogil:
    """The fields of `export()` at fixed widths; the variable lengths follow from the board, the rules and
    `stack_len` (packed before the stack)."""
    cdef const Board* b = &g_boards[s.board_id]
    cdef const Player* pl
    cdef int n = 0, i, p, g
    cdef uint64_t cities = ((<uint64_t>1) << b.n_cities) - 1 if b.n_cities < 64 else <uint64_t>0xFFFFFFFFFFFFFFFF
    cdef int64_t head[9]
    cdef int64_t card[14]
    cdef int64_t end[4]
    head[:] = [s.board_id, s.n_players, s.options, s.phase, s.decider, s.turn_player, s.pm_holder,
               s.order_known, s.chance_external]
    for i in range(9):
        n = _put(buf, n, head[i], 1)
    for i in range(b.n_cities):
        n = _put(buf, n, s.city_good[i], 1)
    for i in range(b.n_provinces):
        n = _put(buf, n, s.marker_coin[i], 1)
        n = _put(buf, n, s.marker_good[i], 1)
    for i in range(DISPLAY):
        n = _put(buf, n, s.display[i], 1)
    n = _put(buf, n, s.stack_len, 1)
    for i in range(s.stack_len):
        n = _put(buf, n, s.stack[i], 1)
    card[:] = [s.nile_pos, s.act_kind, s.steps, s.moved, s.pick_last, s.merc_sold_last, s.merc_bought_last,
               s.merc_kinds, s.merc_sold_mask, s.buys, s.col_last, s.col_cash_ok, s.keep_player, s.keep_last]
    for i in range(14):
        n = _put(buf, n, card[i], 1)
    for i in range(NCOL):
        n = _put(buf, n, s.arch_from[i], 2)
    for p in range(s.n_players):
        for g in range(NGOODS):
            n = _put(buf, n, s.pend[p][g], 1)
    end[:] = [s.end_player, s.end_this_turn, s.final_turns, s.inter_paid]
    for i in range(4):
        n = _put(buf, n, end[i], 1)
    n = _put(buf, n, s.turns, 4)
    n = _put(buf, n, <int64_t>s.rng, 8)
    for p in range(s.n_players):
        pl = &s.pl[p]
        n = _put(buf, n, pl.coins, 4)
        for g in range(NGOODS):
            n = _put(buf, n, pl.goods[g], 1)
        for i in range(NCOL):
            n = _put(buf, n, pl.col[i], 2)
        for i in range(g_rules.n_kinds):
            n = _put(buf, n, pl.hand[i], 1)
            n = _put(buf, n, pl.discard[i], 1)
        n = _put(buf, n, pl.top, 1)
        n = _put(buf, n, <int64_t>(pl.houses & cities), 8)
        n = _put(buf, n, pl.inter_done, 1)
        n = _put(buf, n, pl.inter_vp, 2)
    return n


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
