# The ISMCTS loop: selection (UCB over availability counts, the policy's PUCT term; or PUCT with first-play
# urgency, puct.pxi), expansion, rollout, backup.
#
# Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012). Every move in Concordia is public; the only
# hidden thing is the order of the unseen cards inside each deck. Each iteration copies the root, forgets
# the stack order, and resolves every card revealed during the descent as an explicit chance node whose
# outcome is drawn uniformly from the unseen cards of the top deck (the same distribution as a fresh
# shuffle of each deck, so re-sampling is built in and the true order can never leak). Children whose
# legality depends on the sample use availability counts in UCB ("subset-armed bandit").
#
# Included into core.pyx so that it calls the rules functions directly (no Python per iteration).
from libc.math cimport sqrt, log, pow

cdef inline int policy_move(State* st, const int32_t* acts, int n, int policy, const SearchConfig* cfg,
                            uint64_t* r) noexcept nogil:
    """The index among acts of the move the POL_* `policy` plays at st (POL_RANDOM, POL_GREEDY with epsilon
    random moves, POL_POLICY drawn from the learned prior)."""
    if policy == POL_GREEDY and <float>(rng_next(r) >> 40) / 16777216.0 >= cfg.epsilon:
        return greedy_index(st, acts, n, r)
    if policy == POL_POLICY:
        return policy_sample(st, cfg.policy_slot, acts, n, r)
    return rng_below(r, n)


cdef inline int opponent_policy(int opponents) noexcept nogil:
    """The POL_* code that plays the other seats outside the tree for an OPP_* setting (not OPP_TREE)."""
    if opponents == OPP_GREEDY:
        return POL_GREEDY
    if opponents == OPP_POLICY:
        return POL_POLICY
    return POL_RANDOM


cdef int rollout(State* st, const SearchConfig* cfg, uint64_t* r) noexcept nogil:
    """Play on from st with the rollout policy; returns 1 if the game ended."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef int n, limit, steps = 0
    st.chance_external = 0
    st.order_known = 0
    if cfg.rollout_policy == POL_NONE:
        return st.phase == PH_OVER
    limit = st.turns + cfg.rollout_turns if cfg.rollout_turns > 0 else 1 << 30
    while st.phase != PH_OVER and st.turns < limit and steps < 100000:
        n = gen_legal(st, acts)
        if n <= 0:
            break
        apply_action(st, acts[policy_move(st, acts, n, cfg.rollout_policy, cfg, r)])
        steps += 1
    return st.phase == PH_OVER


cdef inline float puct_bias(const SearchConfig* cfg, const Node* nd) noexcept nogil:
    """The policy's term beside UCB (PUCT): weight * P * sqrt(N_parent) / (1 + N_child), where N_parent is
    the child's availability count (how often its parent was visited with this move legal)."""
    return cfg.policy_w * nd.prior * sqrt(<float>nd.avail) / (1.0 + nd.visits)


cdef int ismcts(const State* root, const SearchConfig* cfg, Tree* t, int32_t* done_iterations, double* seconds,
                int* stop, const int32_t* forced, int n_forced) noexcept nogil:
    """Grow the tree t from `root` for the budget in cfg. With `forced` (n_forced > 0), every iteration
    first follows those decisions from the root (a whole turn: expanding them where the tree has not yet),
    then searches on as usual below them: the turn's figures are the same tree's, on the same footing as
    the turns the search chose by itself."""
    cdef State st
    cdef int32_t acts[MAX_ACTIONS]
    cdef LegalSet ls
    cdef int32_t path[MAX_DEPTH]
    cdef int depth, n, i, node, ch, best, it = 0, terminal, p, untried, nchild, k
    cdef uint64_t r = seed_mix(cfg.seed)
    cdef float rew[MAX_P]
    cdef float val[MAX_P]
    cdef float winp[MAX_P]
    cdef float leaf_val[MAX_P]
    cdef float leaf_winp[MAX_P]
    cdef float leaf_rew[MAX_P]
    cdef float lw
    cdef int leaf_new, leaf_terminal, leaf
    cdef float q, score, bs, margin, best_other, wr, floor_visits, pr = 0.0
    cdef int32_t cand[MAX_ACTIONS]
    cdef double t0 = cc_thread_seconds(), elapsed = 0.0
    cdef int rootp = root.decider, starved, starved_v
    cdef int fd, forcing, fch, fa, found
    cdef ReportStats* rs
    memset(&ls, 0, sizeof(LegalSet))
    if cfg.minimax_mix > 0 and tree_minimax_init(t) < 0:
        done_iterations[0] = 0
        seconds[0] = cc_thread_seconds() - t0
        return 0
    if t.n == 0:
        if tree_add(t, -1, 0, -1) >= 0:
            tree_track(t, 0)
    while True:
        if cfg.iterations > 0 and it >= cfg.iterations:
            break
        if cfg.seconds > 0 and (it & 31) == 0:
            elapsed = cc_thread_seconds() - t0
            if elapsed >= cfg.seconds:
                break
        if stop != NULL and (it & 31) == 0 and cc_load_flag(stop):
            break
        if t.failed:
            break
        memcpy(&st, root, sizeof(State))
        st.order_known = 0
        st.chance_external = 1
        st.rng = rng_next(&r)
        node = 0
        depth = 0
        path[depth] = 0
        depth += 1
        fd = 0
        forcing = n_forced > 0
        while st.phase != PH_OVER and depth < MAX_DEPTH - 1:
            n = gen_legal(&st, acts)
            if n <= 0:
                break
            if st.phase == PH_CHANCE:
                # an unseen card turns up: sample it, then follow (or grow) that outcome's branch
                forcing = 0     # a whole turn ends before any reveal
                i = acts[rng_below(&st.rng, n)]
                if cfg.chance_merge or cfg.opponents != OPP_TREE:
                    # open loop: every outcome shares the decisions that follow (availability counts
                    # sort out which of them are legal in this sample)
                    apply_action(&st, i)
                    continue
                ch = t.nodes[node].child
                while ch >= 0 and t.nodes[ch].action != i:
                    ch = t.nodes[ch].sibling
                if ch < 0:
                    ch = tree_add(t, node, i, -1)
                    if ch < 0:
                        break
                apply_action(&st, i)
                node = ch
                path[depth] = node
                depth += 1
                continue
            p = st.decider
            if cfg.opponents == OPP_OMA and p != rootp:
                # opponent move abstraction (Baier and Kaisers 2020): the seat chooses by PUCT over its own
                # statistics at this node, and whatever it chose, the descent goes on from one shared node,
                # so the searching seat's next decisions gather every iteration instead of splitting them
                # over the others' moves (open loop: availability counts sort out what is legal)
                forcing = 0
                ch = puct_child(t, node, &st, acts, n, cfg, &r, &ls, -1, 0)
                if ch < 0:
                    break      # a leaf (rolled out from here) or the tree is full (t.failed)
                apply_action(&st, t.nodes[ch].action)
                path[depth] = ch
                depth += 1
                node = oma_next(t, node)
                if node < 0:
                    break          # the tree is full (t.failed): this iteration ends on the move
                path[depth] = node
                depth += 1
                continue
            if cfg.opponents != OPP_TREE and p != rootp:
                # another seat moves outside the tree (SearchConfig.opponents): the searching seat's next
                # decision stays a child of its last one, whatever the others did (availability counts sort
                # out which of its moves are legal in this sample)
                forcing = 0
                apply_action(&st, acts[policy_move(&st, acts, n, opponent_policy(cfg.opponents), cfg, &r)])
                continue
            if forcing and fd >= n_forced:
                forcing = 0
            fa = forced[fd] if forcing else -1
            if cfg.select == SEL_PUCT:
                ch = puct_child(t, node, &st, acts, n, cfg, &r, &ls, fa,
                                t.nodes[node].stats >= 0 and p == rootp and st.turns == root.turns)
                if ch < 0:
                    break      # a leaf (rolled out from here) or the tree is full (t.failed)
                if forcing:
                    if t.nodes[ch].action == fa:
                        fd += 1
                    else:
                        forcing = 0     # not legal here (cannot happen for a checked turn): search as usual
                apply_action(&st, t.nodes[ch].action)
                node = ch
                path[depth] = node
                depth += 1
                continue
            fch = -1
            legal_fill(&ls, acts, n)
            # children legal in this determinization gain availability; pick the best by UCB
            best = -1
            bs = -1e18
            nchild = 0
            starved = -1
            starved_v = 1 << 30
            ch = t.nodes[node].child
            while ch >= 0:
                if legal_take(&ls, t.nodes[ch].action):
                    nchild += 1
                    t.nodes[ch].avail += 1
                    q = t.nodes[ch].w / t.nodes[ch].visits
                    if cfg.minimax_mix > 0:
                        q = (1.0 - cfg.minimax_mix) * q + cfg.minimax_mix * t.mm[ch * MAX_P + t.nodes[ch].mover]
                    score = q + cfg.c * sqrt(log(<float>t.nodes[ch].avail) / t.nodes[ch].visits)
                    if cfg.policy_w > 0:
                        score += puct_bias(cfg, &t.nodes[ch])
                    if score > bs:
                        bs = score
                        best = ch
                    if t.nodes[ch].visits < starved_v:
                        starved_v = t.nodes[ch].visits
                        starved = ch
                    if t.nodes[ch].action == fa:
                        fch = ch
                ch = t.nodes[ch].sibling
            untried = 0
            for i in range(n):
                if legal_untried(&ls, acts[i]):
                    cand[untried] = acts[i]
                    untried += 1
            if fa >= 0 and fch < 0:
                found = 0
                for i in range(untried):
                    if cand[i] == fa:
                        found = 1
                if found:
                    # the forced decision is untried here: expand it (and roll out from it)
                    ch = tree_add(t, node, fa, p)
                    if ch < 0:
                        break
                    if t.nodes[node].stats >= 0 and p == rootp and st.turns == root.turns:
                        tree_track(t, ch)     # a decision of the current turn: a report reads it
                    t.nodes[ch].avail = 1
                    apply_action(&st, fa)
                    path[depth] = ch
                    depth += 1
                    break
                forcing = 0     # not legal here (cannot happen for a checked turn): search as usual
            if fch >= 0:
                fd += 1
                apply_action(&st, fa)
                node = fch
                path[depth] = node
                depth += 1
                continue
            if untried > 0 and (cfg.pw_k <= 0 or nchild < cfg.pw_k * pow(<double>(t.nodes[node].visits + 1), cfg.pw_alpha)) \
                    and (best < 0 or cfg.fpu <= 0 or cfg.fpu >= bs):
                # expand one untried action: the heuristic's favourite, or a random one
                if cfg.policy_w > 0:
                    i = cand[policy_pick(&st, cfg.policy_slot, acts, n, cand, untried, &r, &pr)]
                    t.prior_calls += 1
                elif cfg.use_prior:
                    i = cand[greedy_index(&st, cand, untried, &r)]
                else:
                    i = cand[rng_below(&r, untried)]
                ch = tree_add(t, node, i, p)
                if ch < 0:
                    break
                if t.nodes[node].stats >= 0 and p == rootp and st.turns == root.turns:
                    tree_track(t, ch)         # a decision of the current turn: a report reads it
                t.nodes[ch].avail = 1
                t.nodes[ch].prior = pr
                apply_action(&st, i)
                path[depth] = ch
                depth += 1
                break
            if best < 0:
                break
            if node == 0 and cfg.root_floor > 0 and nchild > 1:
                # visit floor at the root: no alternative falls below a share of an even split, so
                # every candidate's figures rest on enough visits to be compared
                floor_visits = cfg.root_floor * (<float>t.nodes[0].visits) / nchild
                if starved_v < floor_visits:
                    best = starved
            apply_action(&st, t.nodes[best].action)
            node = best
            path[depth] = node
            depth += 1
        terminal = st.phase == PH_OVER
        leaf_terminal = terminal
        leaf = path[depth - 1]
        # a node's first visit gives it its implicit minimax value: the evaluation of its state (minimax_mix)
        leaf_new = cfg.minimax_mix > 0 and t.nodes[leaf].visits == 0
        lw = 0.0
        if not terminal and (cfg.leaf_mix > 0.0 or leaf_new):
            # the evaluation at the leaf itself, mixed into the rollout's (SearchConfig.leaf_mix)
            reward_vector(&st, cfg, leaf_val, leaf_winp, leaf_rew, 0)
            lw = cfg.leaf_mix
        if not terminal:
            terminal = rollout(&st, cfg, &r)
        reward_vector(&st, cfg, val, winp, rew, terminal, leaf_val, leaf_winp, lw)
        if leaf_new and leaf_terminal:
            memcpy(&t.mm[leaf * MAX_P], rew, sizeof(float) * MAX_P)
        elif leaf_new:
            memcpy(&t.mm[leaf * MAX_P], leaf_rew, sizeof(float) * MAX_P)
        best_other = -1e9
        for i in range(st.n_players):
            if i != rootp and val[i] > best_other:
                best_other = val[i]
        margin = val[rootp] - best_other
        wr = winp[rootp]
        for i in range(depth):
            node = path[i]
            t.nodes[node].visits += 1
            if t.nodes[node].mover >= 0:
                t.nodes[node].w += rew[t.nodes[node].mover]
            t.nodes[node].vp += val[rootp]
            t.nodes[node].vp2 += val[rootp] * val[rootp]
            t.nodes[node].margin += margin
            t.nodes[node].win += wr
            t.nodes[node].win2 += wr * wr
            if t.nodes[node].stats >= 0:
                rs = &t.stats[t.nodes[node].stats]
                rs.margin2 += margin * margin
                rs.margin_win += margin * wr
                for k in range(st.n_players):
                    rs.seat_vp[k] += val[k]
                    rs.seat_win[k] += winp[k]
                if terminal:
                    rs.term += 1
                    rs.term_margin += margin
                    for k in range(st.n_players):
                        rs.term_win[k] += winp[k]
                        rs.term_vp[k] += val[k]
        if cfg.minimax_mix > 0:
            for i in range(depth - 2, -1, -1):
                minimax_backup(t, path[i])
        it += 1
    done_iterations[0] = it
    seconds[0] = cc_thread_seconds() - t0
    return 0
