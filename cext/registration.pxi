# Included by core.pyx. Declarations: core.pxd.

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
