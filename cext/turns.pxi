# Whole turns from a search tree: collecting the turn ends, completing partial turns, their export as dicts.
from libc.stdlib cimport malloc, realloc, free, qsort

# A whole turn is the root player's run of sub-decisions from the root until the turn ends: the turn
# counter moves on, another seat (or chance) decides, or the game ends. Chance nodes never lie inside a
# turn in Concordia (the display is refilled after the player's last decision), so the node of the last
# decision is the turn's candidate and its statistics already aggregate over every chance outcome below
# it. Self-contained: it reads only action, child, sibling, visits and the root player's sums of a Node,
# and dedupes by node index, so it stays valid if the tree becomes a DAG.

cdef enum:
    MAX_TURN_LEN = 64      # sub-decisions in one turn (an Architect turn is far shorter)

ctypedef struct TurnRec:
    int32_t node           # the node after the turn's last tree decision
    int32_t visits
    int32_t off            # the turn's actions: path[off .. off + len)
    int32_t len
    int32_t partial        # 1: the tree stops before the turn ends (completed greedily when reported)

ctypedef struct TurnList:
    TurnRec* recs
    int32_t n
    int32_t cap
    int32_t* path
    int32_t plen
    int32_t pcap
    int32_t failed


cdef inline int turn_over(const State* s, int p, int32_t turn) noexcept nogil:
    return s.phase == PH_OVER or s.decider != p or s.turns != turn


cdef int turns_push(TurnList* out, int32_t node, int32_t visits, const int32_t* acts, int n, int partial) noexcept nogil:
    cdef TurnRec* grown_r
    cdef int32_t* grown_p
    cdef int i
    if out.n >= out.cap:
        grown_r = <TurnRec*>realloc(out.recs, sizeof(TurnRec) * out.cap * 2)
        if grown_r == NULL:
            out.failed = 1
            return -1
        out.recs = grown_r
        out.cap *= 2
    while out.plen + n > out.pcap:
        grown_p = <int32_t*>realloc(out.path, sizeof(int32_t) * out.pcap * 2)
        if grown_p == NULL:
            out.failed = 1
            return -1
        out.path = grown_p
        out.pcap *= 2
    out.recs[out.n].node = node
    out.recs[out.n].visits = visits
    out.recs[out.n].off = out.plen
    out.recs[out.n].len = n
    out.recs[out.n].partial = partial
    for i in range(n):
        out.path[out.plen + i] = acts[i]
    out.plen += n
    out.n += 1
    return 0


cdef int action_legal(State* s, int32_t a) noexcept nogil:
    cdef int32_t acts[MAX_ACTIONS]
    cdef int n = gen_legal(s, acts), i
    for i in range(n):
        if acts[i] == a:
            return 1
    return 0


cdef void turns_walk(const Tree* t, const State* s, int32_t node, int p, int32_t turn, int32_t* acts, int depth,
                     uint8_t* seen, TurnList* out) noexcept nogil:
    """Depth-first over the root player's decisions below `node` (state `s`), recording turn ends."""
    cdef State st
    cdef int32_t ch = t.nodes[node].child
    while ch >= 0 and not out.failed:
        if not seen[ch] and t.nodes[ch].visits > 0:
            seen[ch] = 1
            memcpy(&st, s, sizeof(State))
            if action_legal(&st, t.nodes[ch].action):
                apply_action(&st, t.nodes[ch].action)
                acts[depth] = t.nodes[ch].action
                if turn_over(&st, p, turn):
                    turns_push(out, ch, t.nodes[ch].visits, acts, depth + 1, 0)
                elif t.nodes[ch].child < 0 or depth + 1 >= MAX_TURN_LEN:
                    turns_push(out, ch, t.nodes[ch].visits, acts, depth + 1, 1)
                else:
                    turns_walk(t, &st, ch, p, turn, acts, depth + 1, seen, out)
        ch = t.nodes[ch].sibling


cdef int turn_rec_order(const void* a, const void* b) noexcept nogil:
    # most visited first; ties by position in the walk (deterministic)
    cdef const TurnRec* x = <const TurnRec*>a
    cdef const TurnRec* y = <const TurnRec*>b
    if x.visits != y.visits:
        return -1 if x.visits > y.visits else 1
    return -1 if x.off < y.off else (1 if x.off > y.off else 0)


cdef int collect_turns(const Tree* t, const State* root, TurnList* out) noexcept nogil:
    """Every turn end below the root of t (a finished turn or a partial one), most visited first."""
    cdef State st
    cdef int32_t acts[MAX_TURN_LEN]
    cdef uint8_t* seen = <uint8_t*>malloc(t.n if t.n > 0 else 1)
    if seen == NULL:
        out.failed = 1
        return -1
    memset(seen, 0, t.n if t.n > 0 else 1)
    memcpy(&st, root, sizeof(State))
    st.order_known = 0          # as in the search: the unseen order is unknown
    st.chance_external = 1
    seen[0] = 1
    turns_walk(t, &st, 0, root.decider, root.turns, acts, 0, seen, out)
    free(seen)
    qsort(out.recs, out.n, sizeof(TurnRec), turn_rec_order)
    return 0


cdef int complete_turn(const State* root, int32_t* acts, int n, uint64_t* r) noexcept nogil:
    """Replay a partial turn and finish it with the greedy policy; returns the new length."""
    cdef State st
    cdef int32_t legal[MAX_ACTIONS]
    cdef int i, k, p = root.decider
    cdef int32_t turn = root.turns
    memcpy(&st, root, sizeof(State))
    st.order_known = 0
    st.chance_external = 1
    for i in range(n):
        apply_action(&st, acts[i])
    while n < MAX_TURN_LEN and not turn_over(&st, p, turn):
        k = gen_legal(&st, legal)
        if k <= 0:
            break
        acts[n] = legal[greedy_index(&st, legal, k, r)]
        apply_action(&st, acts[n])
        n += 1
    return n


cdef list _turn_dicts(const Tree* t, const State* root, int limit, uint64_t seed, dict marks):
    """The `limit` most visited whole turns of the tree as dicts (see concordia_ai.ai.search.TurnCandidate),
    and every turn of the final choice (`marks`: node -> (round reached, named index)) beyond them."""
    cdef TurnList out
    cdef TurnRec rec
    cdef Node nd
    cdef int32_t acts[MAX_TURN_LEN]
    cdef int i, j, n, node
    cdef uint64_t r = seed_mix(seed ^ <uint64_t>0x7475726e)
    out.cap = 64
    out.pcap = 1024
    out.n = 0
    out.plen = 0
    out.failed = 0
    out.recs = <TurnRec*>malloc(sizeof(TurnRec) * out.cap)
    out.path = <int32_t*>malloc(sizeof(int32_t) * out.pcap)
    turns = []
    try:
        if out.recs == NULL or out.path == NULL:
            raise MemoryError()
        with nogil:
            collect_turns(t, root, &out)
        if out.failed:
            raise MemoryError()
        for i in range(out.n):
            rec = out.recs[i]
            if i >= limit and rec.node not in marks:
                continue
            focus, named, candidate = marks.get(rec.node, (0, -1, False))
            if rec.node not in marks:
                # a turn below a turn prefix that the final choice judged (a principal turn the tree had
                # not finished) carries that prefix's round
                node = t.nodes[rec.node].parent
                while node > 0:
                    if node in marks:
                        focus = marks[node][0]
                        break
                    node = t.nodes[node].parent
            nd = t.nodes[rec.node]
            for j in range(rec.len):
                acts[j] = out.path[rec.off + j]
            n = rec.len
            if rec.partial:
                n = complete_turn(root, acts, n, &r)
            # after the turn: the most visited line on (other players' turns, reveals, later turns)
            after = []
            node = rec.node
            while t.nodes[node].child >= 0 and len(after) < 48:
                node = _most_visited(<Tree*>t, node)
                if node < 0 or t.nodes[node].visits < 2:
                    break
                after.append(t.nodes[node].action)
                node = line_on(<Tree*>t, node)
            turns.append(dict(actions=[acts[j] for j in range(n)], tree_len=rec.len, partial=bool(rec.partial),
                              visits=nd.visits, mean=nd.w / max(1, nd.visits), win=nd.win / max(1, nd.visits),
                              vp=nd.vp / max(1, nd.visits), margin=nd.margin / max(1, nd.visits),
                              after=after if not rec.partial else [], focus=focus, named=named,
                              candidate=candidate,
                              **_report_stats(t, rec.node, root.n_players)))
        return turns
    finally:
        free(out.recs)
        free(out.path)
