# PUCT selection with first-play urgency (SearchConfig.select = SEL_PUCT), a prior per node computed once.
#
# Today's selection (ismcts.pxi, SEL_UCB) tries every legal child before it selects among them, so a prior can
# only order the tries. Here (AlphaZero's PUCT as Leela Zero and KataGo play it, over ISMCTS availability
# counts) a node's children are all made at once, each with its prior P and no visits, and a child is chosen by
#     Q + c_puct * P * sqrt(avail) / (1 + visits)
# where avail is how often the parent was visited with the move legal, and an unvisited child's Q is the
# first-play urgency: the mean reward of the mover over the node's visited children, less fpu_reduction (times
# the square root of the visited children's summed prior with fpu_scaled). A move with a tiny prior is then
# never tried until sqrt(avail) makes up for it: the prior prunes. With c_puct_log > 0 the weight c_puct grows
# with the node's visits N, c_puct + c_puct_log * ln((N + c_puct_base) / c_puct_base) (AlphaZero's c(s),
# KataGo's cpuctExplorationLog): a constant tuned at a few thousand iterations may explore too little at more.
#
# A node is a leaf at its first visit (rolled out from, no prior); its children and their prior are made at the
# second. Most nodes of a tree are visited once, so the prior is computed for a fraction of the iterations
# (today's UCB with the policy computes it at every expansion, over the parent's moves).

from libc.math cimport log, sqrt
from libc.stdlib cimport malloc, calloc, free

cdef enum:
    PUCT_LEAF = -1       # puct_child: the node is a leaf this iteration (roll out from it)
    PUCT_FAIL = -2       # ... the tree could not grow (t.failed)


cdef void greedy_probs(State* st, const int32_t* acts, int n, float temp, float* out) noexcept nogil:
    """The heuristic's prior: softmax of the greedy bot's one-step values (action_value, in VP) / temp."""
    cdef int i
    for i in range(n):
        out[i] = action_value(st, acts[i], st.decider) / temp
    softmax_inplace(out, n)


cdef int node_prior(State* st, const int32_t* acts, int n, const SearchConfig* cfg, float* out) noexcept nogil:
    """out[i] = the prior of acts[i] among the n legal moves at st: the learned policy (policy > 0), the
    heuristic's (prior = true), or uniform. Returns 1 if a prior was evaluated (0 for the uniform one)."""
    cdef int i
    if cfg.policy_w > 0 and policy_probs(st, cfg.policy_slot, acts, n, out):
        return 1
    if cfg.use_prior and st.decider >= 0:
        greedy_probs(st, acts, n, cfg.prior_temp, out)
        return 1
    for i in range(n):
        out[i] = 1.0 / n
    return 0


cdef int puct_expand(Tree* t, int node, State* st, const int32_t* acts, int n, int32_t* cand, int m,
                     const SearchConfig* cfg, uint64_t* r, int track) noexcept nogil:
    """Children for the m moves cand (legal at st, a subset of acts), each with its prior among all n legal
    moves, visited 0 times and available once (this visit). Made in a random order, so that children of equal
    prior are tried in a random order. Returns the first new child's index (they are consecutive), or
    PUCT_FAIL."""
    cdef float prob[MAX_ACTIONS]
    cdef int i, j, first = t.n, ch
    cdef int32_t a
    if cfg.opponents == OPP_OMA and t.nodes[node].child >= 0:
        # a move this sample makes legal at a node whose children exist (open loop under opponents = oma, where
        # a node's state differs from sample to sample): an even share, not a new evaluation of the prior (with
        # one, 2.03 evaluations an iteration at the 4-player opening instead of 0.79)
        for i in range(n):
            prob[i] = 1.0 / n
    else:
        t.prior_calls += node_prior(st, acts, n, cfg, prob)
    for i in range(m - 1, 0, -1):
        j = <int>rng_below(r, i + 1)
        a = cand[i]
        cand[i] = cand[j]
        cand[j] = a
    for i in range(m):
        ch = tree_add(t, node, cand[i], st.decider)
        if ch < 0:
            return PUCT_FAIL
        if track:
            tree_track(t, ch)        # a decision of the current turn: a report reads it
        t.nodes[ch].avail = 1
        j = 0
        while acts[j] != cand[i]:
            j += 1
        t.nodes[ch].prior = prob[j]
    return first


cdef int puct_child(Tree* t, int node, State* st, const int32_t* acts, int n, const SearchConfig* cfg,
                    uint64_t* r, LegalSet* ls, int32_t forced, int track) noexcept nogil:
    """The child of `node` (state st, legal moves acts) that the descent follows: `forced` if it is legal
    (a whole turn followed from the root), else the best by PUCT, or the root's most starved visited child
    under the visit floor (root_floor). PUCT_LEAF at a node's first visit (the root excepted)."""
    cdef int32_t cand[MAX_ACTIONS]
    cdef int ch, m = 0, i, first, nlegal = 0, nvisited = 0, best_v = -1, best_u = -1, fch = -1, starved = -1
    cdef int32_t visited_n = 0, starved_v = 1 << 30
    cdef float sq, q, score, bs_v = -1e30, bu = -1.0, visited_w = 0.0, visited_p = 0.0, fpu_q, floor_visits
    cdef float cp = cfg.c_puct
    if t.nodes[node].child < 0 and t.nodes[node].visits == 0 and node != 0 and forced < 0:
        return PUCT_LEAF
    if cfg.c_puct_log > 0:
        # N is the node's visits so far, one figure for all its children: a move legal at every visit since
        # the children were made has avail = N (N + 1 at the root, whose children come at its first visit),
        # so the log and sqrt(avail) count the same visits; a move legal in fewer samples keeps its smaller
        # sqrt(avail). (c_puct_log = 0 skips this: today's search, bit for bit.)
        cp = cfg.c_puct + cfg.c_puct_log * log((<double>t.nodes[node].visits + cfg.c_puct_base) / cfg.c_puct_base)
    legal_fill(ls, acts, n)
    ch = t.nodes[node].child
    while ch >= 0:
        # under opponents = oma a node's state, and so who decides there, differs from sample to sample: a
        # child made for another seat is not this seat's move, even where the move's code is the same
        if (cfg.opponents != OPP_OMA or t.nodes[ch].mover == st.decider) and legal_take(ls, t.nodes[ch].action):
            nlegal += 1
            t.nodes[ch].avail += 1
            sq = sqrt(<float>t.nodes[ch].avail)
            if t.nodes[ch].visits > 0:
                q = t.nodes[ch].w / t.nodes[ch].visits
                if t.mm != NULL and cfg.minimax_mix > 0:
                    # the implicit minimax value of the child for the seat choosing here (Lanctot et al. 2014)
                    q = (1.0 - cfg.minimax_mix) * q + cfg.minimax_mix * t.mm[ch * MAX_P + t.nodes[ch].mover]
                score = q + cp * t.nodes[ch].prior * sq / (1.0 + t.nodes[ch].visits)
                if score > bs_v:
                    bs_v = score
                    best_v = ch
                visited_w += t.nodes[ch].w
                visited_n += t.nodes[ch].visits
                visited_p += t.nodes[ch].prior
                nvisited += 1
                if t.nodes[ch].visits < starved_v:
                    starved_v = t.nodes[ch].visits
                    starved = ch
            else:
                # unvisited: all share the first-play value, so the largest prior term wins among them
                score = cp * t.nodes[ch].prior * sq
                if score > bu:
                    bu = score
                    best_u = ch
            if t.nodes[ch].action == forced:
                fch = ch
        ch = t.nodes[ch].sibling
    if nlegal < n:
        # legal moves without a child: the node's second visit (its children are made now), or moves this
        # sample makes legal and earlier ones did not (chance = merge)
        for i in range(n):
            if legal_untried(ls, acts[i]):
                cand[m] = acts[i]
                m += 1
        first = puct_expand(t, node, st, acts, n, cand, m, cfg, r, track)
        if first < 0:
            return PUCT_FAIL
        for ch in range(first, first + m):
            score = cp * t.nodes[ch].prior
            if score > bu:
                bu = score
                best_u = ch
            if t.nodes[ch].action == forced:
                fch = ch
    if fch >= 0:
        return fch
    if node == 0 and cfg.root_floor > 0 and nvisited > 1:
        # the visit floor at the root, as with UCB, among the children PUCT has tried: every candidate's
        # figures rest on enough visits to be compared, and a pruned move stays pruned
        floor_visits = cfg.root_floor * (<float>t.nodes[0].visits) / nvisited
        if starved_v < floor_visits:
            return starved
    if best_u >= 0:
        fpu_q = (visited_w / visited_n if visited_n > 0 else 0.0) - \
            cfg.fpu_reduction * (sqrt(visited_p) if cfg.fpu_scaled else 1.0)
        if best_v < 0 or fpu_q + bu > bs_v:
            return best_u
    return best_v


# ---------------------------------------------------------------- Python face (tests)

def puct_pick(children, c_puct, fpu_reduction, fpu_scaled=True, root_floor=0.0, parent_visits=0,
              c_puct_log=0.0, c_puct_base=500.0, minimax=None, minimax_mix=0.0):
    """The child puct_child selects at a node whose children are all legal and made: `children` as (visits,
    summed reward of the mover, prior, availability before this visit) each; returns its index. The node was
    visited parent_visits times (the N of c_puct_log's term); with root_floor > 0 it is the root, else an
    inner node. `minimax`: each child's implicit minimax value for the mover, read with weight minimax_mix.
    Tests check the formula on constructed numbers with it."""
    cdef SearchConfig cfg
    cdef Tree t
    cdef LegalSet* ls
    cdef State* st
    cdef int32_t acts[MAX_ACTIONS]
    cdef int n = len(children), i, parent, ch
    cdef uint64_t r = 1
    if not 1 <= n <= MAX_ACTIONS:
        raise ValueError(f"puct_pick: 1..{MAX_ACTIONS} children")
    memset(&cfg, 0, sizeof(SearchConfig))
    cfg.select = SEL_PUCT
    cfg.c_puct = c_puct
    cfg.c_puct_log = c_puct_log
    cfg.c_puct_base = c_puct_base
    cfg.fpu_reduction = fpu_reduction
    cfg.fpu_scaled = 1 if fpu_scaled else 0
    cfg.root_floor = root_floor
    cfg.minimax_mix = minimax_mix
    if minimax is not None and len(minimax) != n:
        raise ValueError("puct_pick: one minimax value per child")
    memset(&t, 0, sizeof(Tree))
    t.cap = n + 2
    t.nodes = <Node*>malloc(sizeof(Node) * t.cap)
    ls = <LegalSet*>calloc(1, sizeof(LegalSet))
    st = <State*>calloc(1, sizeof(State))        # not read: every legal move has its child already
    try:
        if t.nodes == NULL or ls == NULL or st == NULL or (minimax is not None and tree_minimax_init(&t) < 0):
            raise MemoryError()
        tree_add(&t, -1, 0, -1)
        parent = 0
        if root_floor <= 0:
            parent = tree_add(&t, 0, 0, 0)
        t.nodes[parent].visits = parent_visits
        first = t.n
        for i, (visits, w, prior, avail) in enumerate(children):
            acts[i] = i + 1
            ch = tree_add(&t, parent, i + 1, 0)
            t.nodes[ch].visits = visits
            t.nodes[ch].w = w
            t.nodes[ch].prior = prior
            t.nodes[ch].avail = avail
            if minimax is not None:
                t.mm[ch * MAX_P] = minimax[i]
        ch = puct_child(&t, parent, st, acts, n, &cfg, &r, ls, -1, 0)
        return ch - first
    finally:
        tree_free(&t)
        free(ls)
        free(st)


def minimax_value(children):
    """minimax_backup at a node with these children, each (seat that chose it or -1 for a revealed card, visits,
    its implicit minimax values, one per seat); returns the node's values (zeros where no child is visited).
    Tests check the max^n rule and the chance mean on constructed numbers with it."""
    cdef Tree t
    cdef int i, k, ch, n = len(children)
    if not 1 <= n <= MAX_ACTIONS:
        raise ValueError(f"minimax_value: 1..{MAX_ACTIONS} children")
    memset(&t, 0, sizeof(Tree))
    t.cap = n + 1
    t.nodes = <Node*>malloc(sizeof(Node) * t.cap)
    try:
        if t.nodes == NULL or tree_minimax_init(&t) < 0:
            raise MemoryError()
        tree_add(&t, -1, 0, -1)
        for i, (mover, visits, values) in enumerate(children):
            if len(values) > MAX_P:
                raise ValueError(f"minimax_value: at most {MAX_P} seats")
            ch = tree_add(&t, 0, i + 1, mover)
            t.nodes[ch].visits = visits
            for k in range(len(values)):
                t.mm[ch * MAX_P + k] = values[k]
        minimax_backup(&t, 0)
        return [t.mm[k] for k in range(MAX_P)]
    finally:
        tree_free(&t)
