# The search's settings and tree: SearchConfig, Node, Tree, growing and walking the tree; thread clock, stop flag.
from libc.stdlib cimport calloc, realloc
from libc.stdint cimport int64_t

cdef extern from *:
    """
    #include <time.h>
    /* CPU seconds of the calling thread: a search's budget stays its own when several searches run
       in threads of one process (clock() would count all of them). */
    static double cc_thread_seconds(void) {
        struct timespec ts;
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return (double)clock() / CLOCKS_PER_SEC;
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    /* a stop request set by another thread, read by the search loop without the GIL */
    static int cc_load_flag(int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static void cc_store_flag(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    double cc_thread_seconds() nogil
    int cc_load_flag(int* p) nogil
    void cc_store_flag(int* p, int v) nogil

cdef enum:
    RW_WIN = 0
    RW_RANK = 1
    RW_MARGIN = 2
    RW_MIX = 3
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_NONE = 2         # no rollout: the leaf itself is evaluated
    POL_POLICY = 3       # rollout moves drawn from the policy prior (policy.pxi)
    OPP_TREE = 0         # SearchConfig.opponents: the other seats' moves in the tree (every search before it)
    OPP_RANDOM = 1       # ... outside it: uniform random,
    OPP_GREEDY = 2       # ... the greedy one-step lookahead (with epsilon random moves),
    OPP_POLICY = 3       # ... or drawn from the learned prior;
    OPP_OMA = 4          # ... or tree nodes whose every move leads to one shared node (opponent move abstraction)
    EVAL_HAND = 0        # the hand-set formula `evaluate` (today's default before the value model)
    EVAL_NET = 1         # the value model (value.pxi); fill_config refuses it without weights for the player count
    SEL_UCB = 0          # selection: UCB over availability counts, every legal child tried first (today's default)
    SEL_PUCT = 1         # selection: PUCT with first-play urgency, a prior per node (puct.pxi)
    HASH_SIZE = 4096
    MAX_DEPTH = 4096
    MAX_TREE_NODES = 1 << 28      # 12 GB of nodes; also keeps the doubling of `cap` inside int32
    OMA_NEXT = -2000000000        # the action of the shared node after another seat's move (opponents = oma): no
                                  # move and no tried-move mark in a LegalSet (-1 - move) can equal it

ctypedef struct Node:
    int32_t action
    int32_t parent
    int32_t child
    int32_t sibling
    int32_t visits
    int32_t avail
    float w              # summed reward of the player who chose the action
    float win            # root player's: wins, VP, VP margin (reported for root children)
    float vp
    float margin
    float win2           # root player's summed squared win values: the standard error of `win`
    float vp2
    int32_t stats        # its row of the report statistics (Tree.stats), -1 for a node no report reads
    float prior          # the policy's prior of the action when it was expanded (0 without the policy)
    int8_t mover         # seat that chose the action, -1 for a chance outcome

ctypedef struct ReportStats:
    # What the shown figures need (concordia_ai/ai/outcome.py), kept only for the nodes a report reads: the
    # root and the deciding player's decisions of the current turn (root moves, whole turns). Deeper nodes
    # have none, so the nodes the search walks stay small (76 bytes, as before these statistics).
    float margin2        # root player's summed squared margins: the one standard error of the shown figures
    float margin_win     # root player's summed margin x win value: their covariance, for the same error
    float seat_vp[MAX_P]    # every seat's summed estimated final VP: the locations of the final-result model
    float seat_win[MAX_P]   # every seat's summed win values (the value model's probability at a cut-off, 1 for
                            # the leader by the hand formula, 1 for the winner at the end): the model's other input
    int32_t term         # iterations that reached the game's end: their results are exact, not estimated
    float term_margin    # ... the root player's summed margins over them
    float term_win[MAX_P]   # ... every seat's wins (1 for the winner) over them
    float term_vp[MAX_P]    # ... every seat's final VP over them


ctypedef struct SearchConfig:
    int32_t iterations
    double seconds
    float c
    int32_t final_best_mean
    int32_t reward
    float mix
    float margin_scale
    int32_t rollout_policy
    float epsilon
    int32_t rollout_turns
    float fpu
    int32_t use_prior
    float pw_k
    float pw_alpha
    int32_t eval_kind     # EVAL_HAND or EVAL_NET
    int32_t chance_merge  # 1: one child for every outcome of a revealed card (open loop through chance)
    float root_floor      # root children get at least this share of an even split of the root's visits
    float focus           # share of the budget for the final choice over whole turns (search() only)
    int32_t focus_turns   # how many of the most visited whole turns that choice starts from
    float policy_w        # weight of the policy prior (PUCT term, prior-sampled expansion); 0 = off
    int32_t select        # SEL_UCB or SEL_PUCT
    float c_puct          # PUCT: the prior term's weight
    float c_puct_log      # PUCT: ... grown by this times ln((N + c_puct_base) / c_puct_base), N the node's visits
    float c_puct_base     # ... (c_puct_log 0: constant; AlphaZero, KataGo: more exploration as the visits grow)
    float leaf_mix        # weight of the evaluation at the leaf itself in each backed-up estimate, the rest after
                          # the rollout (AlphaGo's mixing; 0: the rollout's estimate alone, the search of before)
    float minimax_mix     # weight of a child's implicit minimax value in its Q (Tree.mm; 0: off)
    int32_t opponents     # OPP_TREE: the other seats' moves are tree nodes (max^n); else they are played outside
                          # the tree by that policy (opponent_policy) and the tree holds the searching seat's
                          # decisions only, over several of its turns (open loop)
    float fpu_reduction   # PUCT: an unvisited child's value is its parent's mean for the mover less this
    int32_t fpu_scaled    # PUCT: ... times the square root of the visited children's summed prior
    float prior_temp      # PUCT with the heuristic's prior: softmax(greedy value / prior_temp)
    int32_t value_slot    # the weight slot of the value model this search reads (value.pxi W_SLOTS; 0: the shipped)
    int32_t policy_slot   # ... and of the policy prior
    uint64_t seed

ctypedef struct Tree:
    Node* nodes
    int32_t n
    int32_t cap
    int32_t failed
    ReportStats* stats   # the report statistics' rows (Node.stats), grown as nodes are tracked
    int32_t n_stats
    int32_t cap_stats
    int64_t prior_calls  # evaluations of a prior over a node's legal moves (tests: once per node with PUCT)
    float* mm            # implicit minimax values (SearchConfig.minimax_mix > 0, else NULL): MAX_P rewards a node,
                         # the evaluation of its state at its first visit, backed up max^n (minimax_backup)


ctypedef struct LegalSet:
    # the legal moves of one sample at a node, in a small open-addressing hash, so that its children can be
    # matched against them in one walk (a slot is live when its stamp is the current generation)
    int32_t keys[HASH_SIZE]
    uint32_t stamp[HASH_SIZE]
    uint32_t gen


cdef inline uint32_t hslot(int32_t a) noexcept nogil:
    return (<uint32_t>a * <uint32_t>2654435761) & (HASH_SIZE - 1)


cdef inline void legal_fill(LegalSet* ls, const int32_t* acts, int n) noexcept nogil:
    cdef int i
    cdef uint32_t k
    ls.gen += 1
    for i in range(n):
        k = hslot(acts[i])
        while ls.stamp[k] == ls.gen:
            k = (k + 1) & (HASH_SIZE - 1)
        ls.stamp[k] = ls.gen
        ls.keys[k] = acts[i]


cdef inline int legal_take(LegalSet* ls, int32_t a) noexcept nogil:
    """1 if move a is legal in this sample (a child's move: it is marked as tried), else 0."""
    cdef uint32_t k = hslot(a)
    while ls.stamp[k] == ls.gen and ls.keys[k] != a:
        k = (k + 1) & (HASH_SIZE - 1)
    if ls.stamp[k] == ls.gen:
        ls.keys[k] = -1 - ls.keys[k]     # mark as tried (no valid action is negative)
        return 1
    return 0


cdef inline int legal_untried(const LegalSet* ls, int32_t a) noexcept nogil:
    """1 if legal move a (one of those filled in) has not been taken by a child."""
    cdef uint32_t k = hslot(a)
    while ls.stamp[k] == ls.gen and ls.keys[k] != a and ls.keys[k] != -1 - a:
        k = (k + 1) & (HASH_SIZE - 1)
    return ls.keys[k] == a


cdef int tree_add(Tree* t, int32_t parent, int32_t action, int8_t mover) noexcept nogil:
    cdef Node* grown
    cdef float* grown_mm
    cdef int32_t i
    if t.n >= t.cap:
        if t.cap >= MAX_TREE_NODES:
            t.failed = 1
            return -1
        grown = <Node*>realloc(t.nodes, sizeof(Node) * t.cap * 2)
        if grown == NULL:
            t.failed = 1
            return -1
        t.nodes = grown
        if t.mm != NULL:
            grown_mm = <float*>realloc(t.mm, sizeof(float) * MAX_P * t.cap * 2)
            if grown_mm == NULL:
                t.failed = 1
                return -1
            t.mm = grown_mm
        t.cap *= 2
    i = t.n
    t.n += 1
    memset(&t.nodes[i], 0, sizeof(Node))
    t.nodes[i].action = action
    t.nodes[i].parent = parent
    t.nodes[i].child = -1
    t.nodes[i].sibling = -1
    t.nodes[i].mover = mover
    t.nodes[i].stats = -1
    if parent >= 0:
        t.nodes[i].sibling = t.nodes[parent].child
        t.nodes[parent].child = i
    return i


cdef int tree_track(Tree* t, int32_t node) noexcept nogil:
    """Give `node` a row of report statistics (zeroed); -1 (and t.failed) when out of memory."""
    cdef ReportStats* grown
    cdef int32_t cap
    if t.n_stats >= t.cap_stats:
        cap = 64 if t.cap_stats == 0 else t.cap_stats * 2
        grown = <ReportStats*>realloc(t.stats, sizeof(ReportStats) * cap)
        if grown == NULL:
            t.failed = 1
            return -1
        t.stats = grown
        t.cap_stats = cap
    memset(&t.stats[t.n_stats], 0, sizeof(ReportStats))
    t.nodes[node].stats = t.n_stats
    t.n_stats += 1
    return 0


cdef void tree_free(Tree* t) noexcept nogil:
    free(t.nodes)
    free(t.stats)
    free(t.mm)
    t.nodes = NULL
    t.stats = NULL
    t.mm = NULL


cdef int tree_minimax_init(Tree* t) noexcept nogil:
    """Give the tree its implicit minimax values (Tree.mm, zeroed, as many rows as node slots); -1 (and
    t.failed) when out of memory. Nodes made before keep zeros until their first backup."""
    if t.mm != NULL:
        return 0
    t.mm = <float*>calloc(<size_t>MAX_P * t.cap, sizeof(float))
    if t.mm == NULL:
        t.failed = 1
        return -1
    return 0


cdef void minimax_backup(Tree* t, int node) noexcept nogil:
    """A node's implicit minimax value from its visited children: the values of the child best for the seat
    that chooses there (max^n; ties to the first found), or, where a card is revealed (chance children),
    their visit-weighted mean. A node none of whose children is visited keeps its own."""
    cdef int ch = t.nodes[node].child, best = -1, k
    cdef float bv = -1e30, v
    cdef double weight = 0.0
    cdef double acc[MAX_P]
    for k in range(MAX_P):
        acc[k] = 0.0
    while ch >= 0:
        if t.nodes[ch].visits > 0:
            if t.nodes[ch].mover < 0:
                weight += t.nodes[ch].visits
                for k in range(MAX_P):
                    acc[k] += t.nodes[ch].visits * t.mm[ch * MAX_P + k]
            else:
                v = t.mm[ch * MAX_P + t.nodes[ch].mover]
                if v > bv:
                    bv = v
                    best = ch
        ch = t.nodes[ch].sibling
    if best >= 0:
        memcpy(&t.mm[node * MAX_P], &t.mm[best * MAX_P], sizeof(float) * MAX_P)
    elif weight > 0:
        for k in range(MAX_P):
            t.mm[node * MAX_P + k] = <float>(acc[k] / weight)


cdef int oma_next(Tree* t, int node) noexcept nogil:
    """The shared node that follows every move of another seat at `node` (opponents = oma), made at its first
    use; -1 (and t.failed) when the tree cannot grow."""
    cdef int ch = t.nodes[node].child
    while ch >= 0 and t.nodes[ch].action != OMA_NEXT:
        ch = t.nodes[ch].sibling
    if ch < 0:
        ch = tree_add(t, node, OMA_NEXT, -1)
    return ch


cdef int line_on(Tree* t, int node) noexcept nogil:
    """Where a principal line goes on after `node`'s move: the shared node that follows it when it is another
    seat's move under opponents = oma (its own node has no children), else the node itself."""
    cdef int ch
    if t.nodes[node].child >= 0 or t.nodes[node].parent < 0:
        return node
    ch = t.nodes[t.nodes[node].parent].child
    while ch >= 0 and t.nodes[ch].action != OMA_NEXT:
        ch = t.nodes[ch].sibling
    return ch if ch >= 0 else node


cdef int find_path(const Tree* t, const int32_t* acts, int n) noexcept nogil:
    """The node reached from the root by `acts`, or -1 where the tree does not have it."""
    cdef int node = 0, ch, j
    for j in range(n):
        ch = t.nodes[node].child
        while ch >= 0 and t.nodes[ch].action != acts[j]:
            ch = t.nodes[ch].sibling
        if ch < 0:
            return -1
        node = ch
    return node


cdef int _most_visited(Tree* t, int node) noexcept nogil:
    """The most visited child that is a move or a card (not the shared node of opponents = oma), or -1."""
    cdef int ch = t.nodes[node].child, best = -1, bv = -1
    while ch >= 0:
        if t.nodes[ch].visits > bv and t.nodes[ch].action != OMA_NEXT:
            bv = t.nodes[ch].visits
            best = ch
        ch = t.nodes[ch].sibling
    return best
