# Included by core.pyx. Declarations: core.pxd.

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
