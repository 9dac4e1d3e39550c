# The final choice over whole turns: sequential halving (_focus) by the win share a player is shown (_shown_share).
from libc.stdlib cimport malloc, free
from libc.math cimport exp, isfinite, log
from libc.stdint cimport int64_t
import math as pymath

cdef int _node_of(const Tree* t, list acts):
    cdef int32_t path[MAX_TURN_LEN]
    cdef int j, n = len(acts)
    for j in range(n):
        path[j] = acts[j]
    return find_path(t, path, n)


cdef tuple _focus(CoreState root, const SearchConfig* cfg, Tree* t, int64_t budget, int k, list named,
                  int* stop_flag, tuple outcome):
    """The final choice over whole turns: sequential halving (Karnin, Koren & Somekh 2013) among the k
    most visited whole turns of the tree (the candidates) and the named turns. Each round shares its part
    of `budget` evenly among the turns still in; every iteration of a turn's share follows it from the root
    (ismcts' forced path) and searches on below it, so the figures stay the tree's own. After a round the
    lower half drops out by the figure a player reads: the deciding seat's win share under the final-result
    model `outcome` = (k, d, sigma) (concordia_ai/ai/outcome.py; _shown_share), or the mean reward without
    one; ties by visits, then the earlier candidate. A named turn that is not a candidate (an extra) gets
    the same share in every round it stays in, on top of the budget, and drops out where it would have, but
    it is never among the finalists' survivors: naming a turn changes neither the candidates' figures nor
    the choice. Returns ({node: (round reached, named index or -1, is a candidate)}, the survivor's actions,
    iterations, CPU seconds). The last pick among the finalists is made by the caller on their final
    figures (concordia_ai/ai/search.py final_pick), which also merges several searches."""
    cdef SearchConfig sub
    cdef int32_t path[MAX_TURN_LEN]
    cdef int32_t it = 0
    cdef double sec = 0.0
    cdef int n, j, node, i
    total_it, total_s = 0, 0.0
    cands = [dict(path=acts, named=-1) for acts in _full_turns(t, &root.s, k)]
    # and the principal turn under each of the most visited first moves: a move whose turns are long and
    # varied (an Architect's) spreads its visits over many turns, each too thin to be among the k
    for acts in _principal_turns(t, &root.s, max(2, k // 2)):
        if not any(c["path"] == acts for c in cands):
            cands.append(dict(path=acts, named=-1))
    extras = []
    for j, acts in enumerate(named):
        hit = next((c for c in cands if c["path"] == acts), None)
        if hit is not None:
            hit["named"] = j
        else:
            extras.append(dict(path=acts, named=j))
    if not cands and budget > 0:
        # no whole turn explored to its end yet: spend the rest as the search would have
        sub = cfg[0]
        sub.iterations = <int32_t>min(budget, 2147483647)
        sub.seconds = 0.0
        with nogil:
            ismcts(&root.s, &sub, t, &it, &sec, stop_flag, NULL, 0)
        total_it, total_s = it, sec
        cands = [dict(path=acts, named=-1) for acts in _full_turns(t, &root.s, k)]
        budget = 0
    if not cands and not extras:
        return {}, None, total_it, total_s
    natural = len(cands)
    cands = cands + extras
    rounds = max(1, <int>pymath.ceil(pymath.log2(max(1, natural))))
    remaining = list(range(natural))
    extra_in = list(range(natural, len(cands)))
    reached = [0] * len(cands)
    stopped = False
    for r in range(rounds):
        # this round's part of the budget, shared out to the iteration (the total is exactly `budget`)
        part = budget * (r + 1) // rounds - budget * r // rounds
        share_of = len(remaining) if remaining else 1
        runs = [(i, part // share_of + (1 if pos < part % share_of else 0)) for pos, i in enumerate(remaining)]
        runs += [(i, part // share_of) for i in extra_in]
        for i, share in runs:
            if share > 0:
                sub = cfg[0]
                sub.iterations = <int32_t>min(share, 2147483647)
                sub.seconds = 0.0
                sub.seed = seed_mix(cfg.seed ^ (<uint64_t>(r * 1031 + i + 1) << 40))
                n = len(cands[i]["path"])
                for j in range(n):
                    path[j] = cands[i]["path"][j]
                with nogil:
                    ismcts(&root.s, &sub, t, &it, &sec, stop_flag, path, n)
                total_it += it
                total_s += sec
                if t.failed or (stop_flag != NULL and cc_load_flag(stop_flag)):
                    stopped = True
                    break
        keys = {}
        for i in remaining + extra_in:
            node = _node_of(t, cands[i]["path"])
            if node >= 0 and t.nodes[node].visits > 0:
                keys[i] = (_shown_share(t, node, root.s.n_players, root.s.decider, outcome),
                           t.nodes[node].visits, -i)
            else:
                keys[i] = (-1.0, 0, -i)
        remaining.sort(key=lambda i: keys[i], reverse=True)
        if stopped or not remaining:
            break
        keep = 1 if r == rounds - 1 else (len(remaining) + 1) // 2
        if r == rounds - 1:
            keep = min(2, len(remaining))     # the finalists: the caller picks between them
        for i in remaining[keep:]:
            reached[i] = r + 1
        for i in list(extra_in):
            # where the extra would stand among the candidates: out if it is below the last one kept
            if keys[i] < keys[remaining[keep - 1]]:
                reached[i] = r + 1
                extra_in.remove(i)
        remaining = remaining[:keep]
    for i in remaining + extra_in:
        reached[i] = rounds + 1
    for i, c in enumerate(cands):
        # a named turn that a tiny budget left unexplored still gets the iterations that reach its end (a
        # forced iteration expands one node): it must be in the list
        n = len(c["path"])
        for j in range(n):
            path[j] = c["path"][j]
        tries = 0
        while c["named"] >= 0 and not stopped and not t.failed and tries <= n and not _reached(t, path, n):
            sub = cfg[0]
            sub.iterations = 1
            sub.seconds = 0.0
            sub.seed = seed_mix(cfg.seed ^ (<uint64_t>(tries + 7919) << 40))
            with nogil:
                ismcts(&root.s, &sub, t, &it, &sec, stop_flag, path, n)
            total_it += it
            total_s += sec
            tries += 1
    marks = {}
    for i, c in enumerate(cands):
        node = _node_of(t, c["path"])
        if node >= 0:
            marks[node] = (reached[i], c["named"], i < natural)
    return marks, (list(cands[remaining[0]]["path"]) if remaining else None), total_it, total_s


cdef int _reached(const Tree* t, const int32_t* path, int n) noexcept nogil:
    """The tree has the path and an iteration went through its end (PUCT makes children before any visit)."""
    cdef int node = find_path(t, path, n)
    return node >= 0 and t.nodes[node].visits > 0


cdef tuple _outcome_tuple(outcome):
    """(k, d, sigma, w) checked; a 3-tuple has w = 0."""
    if outcome is None:
        return None
    vals = [float(x) for x in outcome]
    if len(vals) == 3:
        vals.append(0.0)
    if len(vals) != 4:
        raise ValueError(f"outcome: {outcome!r} is not (k > 0, d, sigma > 0[, w]), all finite")
    kk, dd, sigma, ww = vals
    if not (isfinite(kk) and isfinite(dd) and isfinite(sigma) and isfinite(ww) and kk > 0 and sigma > 0):
        raise ValueError(f"outcome: {outcome!r} is not (k > 0, d, sigma > 0[, w]), all finite")
    return (kk, dd, sigma, ww)


def shown_share(seat_vp, int decider, outcome, seat_win=None):
    """_shown_share for given mean seat VPs and win values (a test holds it equal to concordia_ai.ai.outcome)."""
    cdef Node nd
    cdef ReportStats rs
    cdef Tree t
    cdef int i, n = len(seat_vp)
    if not 2 <= n <= MAX_P or not 0 <= decider < n or (seat_win is not None and len(seat_win) != n):
        raise ValueError("shown_share: 2-5 seats and a deciding seat among them")
    memset(&nd, 0, sizeof(Node))
    memset(&rs, 0, sizeof(ReportStats))
    nd.visits = 1
    nd.stats = 0
    for i in range(n):
        rs.seat_vp[i] = seat_vp[i]
        rs.seat_win[i] = 1.0 / n if seat_win is None else seat_win[i]
    t.nodes = &nd
    t.stats = &rs
    t.n = t.n_stats = 1
    return _shown_share(&t, 0, n, decider, _outcome_tuple(outcome))


# the win values' floor in the model's log term (a seat the evaluation gives no chance still has a location)
cdef double WIN_FLOOR = 0.001


cdef double _shown_share(const Tree* t, int node, int n, int decider, tuple outcome):
    """The deciding seat's win share through node nd under the final-result model (k, d, sigma, w): over
    the iterations that reached the game's end, its exact win rate; over the others, softmax over the seats
    of m_i / sigma with m_i = k (mu_i - mean mu) + w (L_i - mean L) - d [i = decider], mu_i the seat's mean
    estimated final VP and L_i the log of its mean win value (floored at WIN_FLOOR) over them (the same
    formula as concordia_ai/ai/outcome.py, which a test compares). The mean reward without a model."""
    cdef double m[MAX_P]
    cdef double lw[MAX_P]
    cdef double mean = 0.0, lmean = 0.0, top = -1e300, total = 0.0, kk, dd, sigma, ww, cut_share, q
    cdef int i, cut
    cdef const Node* nd = &t.nodes[node]
    cdef const ReportStats* rs
    if outcome is None or nd.visits <= 0 or nd.stats < 0:
        return nd.w / max(1, nd.visits)
    rs = &t.stats[nd.stats]
    cut = nd.visits - rs.term
    if cut <= 0:
        return rs.term_win[decider] / rs.term
    kk, dd, sigma, ww = outcome
    for i in range(n):
        m[i] = (rs.seat_vp[i] - rs.term_vp[i]) / cut
        mean += m[i]
        q = (rs.seat_win[i] - rs.term_win[i]) / cut
        lw[i] = log(q if q > WIN_FLOOR else WIN_FLOOR)
        lmean += lw[i]
    mean /= n
    lmean /= n
    for i in range(n):
        m[i] = kk * (m[i] - mean) + ww * (lw[i] - lmean) - (dd if i == decider else 0.0)
        if m[i] > top:
            top = m[i]
    for i in range(n):
        total += exp((m[i] - top) / sigma)
    cut_share = exp((m[decider] - top) / sigma) / total
    return (rs.term_win[decider] + cut * cut_share) / nd.visits


cdef list _principal_turns(const Tree* t, const State* root, int limit):
    """For each of the `limit` most visited root moves, the most visited line from it to the end of the
    player's turn (or as far as the tree goes, the rest of the turn then searched below it)."""
    cdef State st
    cdef int ch, node, p = root.decider
    cdef int32_t turn = root.turns
    firsts = []
    ch = t.nodes[0].child
    while ch >= 0:
        if t.nodes[ch].visits > 0:
            firsts.append((t.nodes[ch].visits, -ch, ch))
        ch = t.nodes[ch].sibling
    firsts.sort(reverse=True)
    out = []
    for _, _, node in firsts[:limit]:
        memcpy(&st, root, sizeof(State))
        st.order_known = 0
        st.chance_external = 1
        acts = []
        while True:
            if not action_legal(&st, t.nodes[node].action):
                break
            apply_action(&st, t.nodes[node].action)
            acts.append(t.nodes[node].action)
            if turn_over(&st, p, turn) or len(acts) >= MAX_TURN_LEN or t.nodes[node].child < 0:
                break
            node = _most_visited(<Tree*>t, node)
            if node < 0 or t.nodes[node].visits == 0 or t.nodes[node].mover != p:
                break
        if acts:
            out.append(acts)
    return out


cdef list _full_turns(const Tree* t, const State* root, int limit):
    """The `limit` most visited whole turns the tree explores to their end, as (node, actions)."""
    cdef TurnList out
    cdef TurnRec rec
    cdef int i
    out.cap = 64
    out.pcap = 1024
    out.n = 0
    out.plen = 0
    out.failed = 0
    out.recs = <TurnRec*>malloc(sizeof(TurnRec) * out.cap)
    out.path = <int32_t*>malloc(sizeof(int32_t) * out.pcap)
    found = []
    try:
        if out.recs == NULL or out.path == NULL:
            raise MemoryError()
        with nogil:
            collect_turns(t, root, &out)
        if out.failed:
            raise MemoryError()
        for i in range(out.n):
            rec = out.recs[i]
            if rec.partial:
                continue
            found.append([out.path[rec.off + j] for j in range(rec.len)])
            if len(found) >= limit:
                break
        return found
    finally:
        free(out.recs)
        free(out.path)
