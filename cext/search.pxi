# Information Set MCTS and the heuristic players, included into core.pyx so they call the rules
# functions directly (no Python per iteration).
#
# Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012). Every move in Concordia is public; the only
# hidden thing is the order of the unseen cards inside each deck. Each iteration copies the root, forgets
# the stack order, and resolves every card revealed during the descent as an explicit chance node whose
# outcome is drawn uniformly from the unseen cards of the top deck (the same distribution as a fresh
# shuffle of each deck, so re-sampling is built in and the true order can never leak). Children whose
# legality depends on the sample use availability counts in UCB ("subset-armed bandit").
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport sqrt, log, exp, pow, isfinite
from libc.stdint cimport int64_t
import math as pymath

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
    EVAL_HAND = 0        # the hand-set formula `evaluate` (today's default before the value model)
    EVAL_NET = 1         # the value model (value.pxi); fill_config refuses it without weights for the player count
    HASH_SIZE = 4096
    MAX_DEPTH = 4096
    MAX_TREE_NODES = 1 << 28      # 12 GB of nodes; also keeps the doubling of `cap` inside int32

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
    float margin2        # root player's summed squared margins: the one standard error of the shown figures
    float seat_vp[MAX_P]    # every seat's summed estimated final VP: the locations of the final-result model
                            # (concordia_ai/ai/outcome.py), from which every shown figure comes
    int32_t term         # iterations that reached the game's end: their results are exact, not estimated
    float term_margin    # ... the root player's summed margins over them
    float term_win[MAX_P]   # ... every seat's wins (1 for the winner) over them
    float term_vp[MAX_P]    # ... every seat's final VP over them
    float prior          # the policy's prior of the action when it was expanded (0 without the policy)
    int8_t mover         # seat that chose the action, -1 for a chance outcome

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
    uint64_t seed

ctypedef struct Tree:
    Node* nodes
    int32_t n
    int32_t cap
    int32_t failed


cdef int tree_add(Tree* t, int32_t parent, int32_t action, int8_t mover) noexcept nogil:
    cdef Node* grown
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
        t.cap *= 2
    i = t.n
    t.n += 1
    memset(&t.nodes[i], 0, sizeof(Node))
    t.nodes[i].action = action
    t.nodes[i].parent = parent
    t.nodes[i].child = -1
    t.nodes[i].sibling = -1
    t.nodes[i].mover = mover
    if parent >= 0:
        t.nodes[i].sibling = t.nodes[parent].child
        t.nodes[parent].child = i
    return i


# ---------------------------------------------------------------- evaluation

cdef float wealth(const Player* pl) noexcept nogil:
    cdef int g
    cdef float v = pl.coins
    for g in range(NGOODS):
        v += pl.goods[g] * g_rules.price[g]
    return v


cdef void evaluate(const State* s, float* out) noexcept nogil:
    """A cheap estimate of each player's final score: VP if the game ended now, plus what the
    position can still turn into (money and goods, houses that keep producing, colonists that move)."""
    cdef int32_t sc[MAX_P * NSCORE]
    cdef int p
    cdef const Player* pl
    cdef float late
    score_all(s, sc)
    # the further the game, the more the present score counts and the less the potential
    late = 1.0 if s.end_player >= 0 else (<float>s.turns) / (<float>(30 * s.n_players))
    if late > 1.0:
        late = 1.0
    for p in range(s.n_players):
        pl = &s.pl[p]
        out[p] = sc[p * NSCORE + 8] + (1.0 - late) * (0.08 * wealth(pl) + 1.2 * pl.n_houses + 0.8 * on_board(pl))


cdef void reward_vector(const State* s, const SearchConfig* cfg, float* value, float* winp, float* reward,
                        int terminal) noexcept nogil:
    """Rewards in [0, 1] for every seat, from final scores (terminal) or the evaluation (cut-off).
    `value` gets each seat's (expected) final VP, `winp` its (estimated) probability of winning."""
    cdef int32_t sc[MAX_P * NSCORE]
    cdef int8_t order[MAX_P]
    cdef int n = s.n_players, p, q, rank, have_p = 0
    cdef float best_other, margin, rk
    if terminal:
        score_all(s, sc)
        ranking(s, sc, order)
        for p in range(n):
            value[p] = sc[p * NSCORE + 8]
    else:
        if cfg.eval_kind == EVAL_NET:
            have_p = value_eval(s, winp, value)
        if not have_p:
            evaluate(s, value)
        # rank by value, ties by the Praefectus Magnus order as at the end
        for p in range(n):
            order[p] = p
        for p in range(1, n):
            q = p
            while q > 0 and (value[order[q]] > value[order[q - 1]] or
                             (value[order[q]] == value[order[q - 1]] and
                              (s.pm_holder - order[q] + n) % n < (s.pm_holder - order[q - 1] + n) % n)):
                rank = order[q]; order[q] = order[q - 1]; order[q - 1] = rank
                q -= 1
    if not have_p:
        # the leader by (estimated) final VP wins: 0/1 (exact at the end of the game)
        for rank in range(n):
            winp[order[rank]] = 1.0 if rank == 0 else 0.0
    for rank in range(n):
        p = order[rank]
        best_other = -1e9
        for q in range(n):
            if q != p and value[q] > best_other:
                best_other = value[q]
        margin = 0.5 + (value[p] - best_other) / (2.0 * cfg.margin_scale)
        if margin < 0.0:
            margin = 0.0
        elif margin > 1.0:
            margin = 1.0
        rk = (<float>(n - 1 - rank)) / (<float>(n - 1))
        if cfg.reward == RW_WIN:
            reward[p] = winp[p]
        elif cfg.reward == RW_RANK:
            reward[p] = rk
        elif cfg.reward == RW_MARGIN:
            reward[p] = margin
        else:
            reward[p] = cfg.mix * winp[p] + (1.0 - cfg.mix) * margin


cdef float action_value(State* s, int32_t a, int p) noexcept nogil:
    """One-step lookahead: the evaluation of p minus a share of the best opponent after action a."""
    cdef State t
    cdef float v[MAX_P]
    cdef float best = -1e9
    cdef int q
    memcpy(&t, s, sizeof(State))
    t.chance_external = 0
    t.order_known = 0
    apply_action(&t, a)
    evaluate(&t, v)
    for q in range(t.n_players):
        if q != p and v[q] > best:
            best = v[q]
    return v[p] - 0.3 * best


cdef int greedy_index(State* s, int32_t* acts, int n, uint64_t* r) noexcept nogil:
    cdef int i, best = 0, ties = 0, p = s.decider
    cdef float v, bv = -1e18
    if p < 0:
        return <int>rng_below(r, n)
    for i in range(n):
        v = action_value(s, acts[i], p)
        if v > bv + 1e-6:
            bv = v
            best = i
            ties = 1
        elif v > bv - 1e-6:
            ties += 1
            if rng_below(r, ties) == 0:
                best = i
    return best


cdef float turn_value(State* s, int32_t a, int p, uint64_t* r) noexcept nogil:
    """Apply a, finish p's turn greedily, evaluate: a plan-level look at one whole turn."""
    cdef State t
    cdef int32_t acts[MAX_ACTIONS]
    cdef float v[MAX_P]
    cdef float best = -1e9
    cdef int q, n, steps = 0, turn = s.turns
    memcpy(&t, s, sizeof(State))
    t.chance_external = 0
    t.order_known = 0
    apply_action(&t, a)
    while t.phase != PH_OVER and t.turns == turn and t.decider == p and steps < 64:
        n = gen_legal(&t, acts)
        if n <= 0:
            break
        apply_action(&t, acts[greedy_index(&t, acts, n, r)])
        steps += 1
    evaluate(&t, v)
    for q in range(t.n_players):
        if q != p and v[q] > best:
            best = v[q]
    return v[p] - 0.3 * best


cdef int plan_index(State* s, int32_t* acts, int n, uint64_t* r) noexcept nogil:
    cdef int i, best = 0, ties = 0, p = s.decider
    cdef float v, bv = -1e18
    if p < 0:
        return <int>rng_below(r, n)
    for i in range(n):
        v = turn_value(s, acts[i], p, r)
        if v > bv + 1e-6:
            bv = v
            best = i
            ties = 1
        elif v > bv - 1e-6:
            ties += 1
            if rng_below(r, ties) == 0:
                best = i
    return best


# ---------------------------------------------------------------- the search

cdef inline uint32_t hslot(int32_t a) noexcept nogil:
    return (<uint32_t>a * <uint32_t>2654435761) & (HASH_SIZE - 1)


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
        if cfg.rollout_policy == POL_GREEDY and <float>(rng_next(r) >> 40) / 16777216.0 >= cfg.epsilon:
            apply_action(st, acts[greedy_index(st, acts, n, r)])
        elif cfg.rollout_policy == POL_POLICY:
            apply_action(st, acts[policy_sample(st, acts, n, r)])
        else:
            apply_action(st, acts[rng_below(r, n)])
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
    cdef int32_t keys[HASH_SIZE]
    cdef uint32_t stamp[HASH_SIZE]
    cdef uint32_t gen = 0
    cdef int32_t path[MAX_DEPTH]
    cdef int depth, n, i, node, ch, best, it = 0, terminal, p, untried, nchild, k
    cdef uint64_t r = seed_mix(cfg.seed)
    cdef float rew[MAX_P]
    cdef float val[MAX_P]
    cdef float winp[MAX_P]
    cdef float score, bs, margin, best_other, wr, floor_visits, pr = 0.0
    cdef int32_t cand[MAX_ACTIONS]
    cdef double t0 = cc_thread_seconds(), elapsed = 0.0
    cdef int rootp = root.decider, starved, starved_v
    cdef int fd, forcing, fch, fa, found
    memset(stamp, 0, sizeof(stamp))
    if t.n == 0:
        tree_add(t, -1, 0, -1)
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
                if cfg.chance_merge:
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
            if forcing and fd >= n_forced:
                forcing = 0
            fa = forced[fd] if forcing else -1
            fch = -1
            gen += 1
            for i in range(n):
                k = hslot(acts[i])
                while stamp[k] == gen:
                    k = (k + 1) & (HASH_SIZE - 1)
                stamp[k] = gen
                keys[k] = acts[i]
            # children legal in this determinization gain availability; pick the best by UCB
            best = -1
            bs = -1e18
            nchild = 0
            starved = -1
            starved_v = 1 << 30
            ch = t.nodes[node].child
            while ch >= 0:
                k = hslot(t.nodes[ch].action)
                while stamp[k] == gen and keys[k] != t.nodes[ch].action:
                    k = (k + 1) & (HASH_SIZE - 1)
                if stamp[k] == gen:
                    keys[k] = -1 - keys[k]     # mark as tried (no valid action is negative)
                    nchild += 1
                    t.nodes[ch].avail += 1
                    score = t.nodes[ch].w / t.nodes[ch].visits + \
                        cfg.c * sqrt(log(<float>t.nodes[ch].avail) / t.nodes[ch].visits)
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
                k = hslot(acts[i])
                while stamp[k] == gen and keys[k] != acts[i] and keys[k] != -1 - acts[i]:
                    k = (k + 1) & (HASH_SIZE - 1)
                if keys[k] == acts[i]:
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
                    i = cand[policy_pick(&st, acts, n, cand, untried, &r, &pr)]
                elif cfg.use_prior:
                    i = cand[greedy_index(&st, cand, untried, &r)]
                else:
                    i = cand[rng_below(&r, untried)]
                ch = tree_add(t, node, i, p)
                if ch < 0:
                    break
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
        if not terminal:
            terminal = rollout(&st, cfg, &r)
        reward_vector(&st, cfg, val, winp, rew, terminal)
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
            t.nodes[node].margin2 += margin * margin
            t.nodes[node].win += wr
            t.nodes[node].win2 += wr * wr
            for k in range(st.n_players):
                t.nodes[node].seat_vp[k] += val[k]
            if terminal:
                t.nodes[node].term += 1
                t.nodes[node].term_margin += margin
                for k in range(st.n_players):
                    t.nodes[node].term_win[k] += winp[k]
                    t.nodes[node].term_vp[k] += val[k]
        it += 1
    done_iterations[0] = it
    seconds[0] = cc_thread_seconds() - t0
    return 0


# ---------------------------------------------------------------- Python face

cdef class StopToken:
    """A stop request for running searches: `stop()` from any thread ends every search given this
    token within a few iterations (the result so far is returned, with `stopped` set)."""
    cdef int flag

    def stop(self):
        cc_store_flag(&self.flag, 1)

    def reset(self):
        cc_store_flag(&self.flag, 0)

    @property
    def stopped(self):
        return bool(cc_load_flag(&self.flag))


# The search settings the core takes: every key, always (SearchConfig in concordia_ai/ai/search.py is the
# one place with defaults and bounds; the core checks again so that no dict can hang or wrap it, but it
# fills in nothing). `search` takes `turns` as well (how many whole turns to report).
SEARCH_KEYS = ("iterations", "seconds", "c", "final", "reward", "mix", "margin_scale", "rollout", "epsilon",
               "rollout_turns", "fpu", "prior", "pw_k", "pw_alpha", "eval", "chance", "root_floor", "focus", "focus_turns",
               "policy", "seed")
# the words of the choice keys, in the order of the core's codes (RW_*, POL_*, EVAL_*, ...)
SEARCH_CHOICES = {"final": ("visits", "mean"), "reward": ("win", "rank", "margin", "mix"),
                  "rollout": ("random", "greedy", "none", "policy"), "eval": ("hand", "net"), "chance": ("branch", "merge")}


cdef object _number(dict d, str key, lo, hi, bint integer):
    """d[key] checked here as well as in SearchConfig (defence in depth): a NaN budget would never
    end the loop and a value past int32 would wrap."""
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{key}: {v!r} is not a number")
    if integer and not isinstance(v, int):
        raise ValueError(f"{key}: {v!r} is not an integer")
    if (not isinstance(v, int) and not isfinite(<double>v)) or not lo <= v <= hi:
        span = f"{lo}..{hi}" if integer else f"{lo:g}..{hi:g}"
        raise ValueError(f"{key}: {v!r} is not in {span}")
    return v


cdef int _choice(dict d, str key) except -1:
    """The code of a word setting (its index in SEARCH_CHOICES[key])."""
    v, words = d[key], SEARCH_CHOICES[key]
    if not isinstance(v, str) or v not in words:
        raise ValueError(f"{key}: {v!r} is not one of {', '.join(words)}")
    return words.index(v)


cdef void _check_keys(dict d, tuple keys) except *:
    missing = [k for k in keys if k not in d]
    if missing:
        raise ValueError(f"search config: {', '.join(missing)} missing (the core takes every key: "
                         f"{', '.join(keys)}; SearchConfig.core_dict builds the dict)")
    unknown = sorted(repr(k) for k in d if k not in keys)
    if unknown:
        raise ValueError(f"search config: unknown key {', '.join(unknown)} (the keys are {', '.join(keys)})")


cdef void fill_config(SearchConfig* cfg, dict d, int n_players, bint with_turns) except *:
    """Every key of d into cfg, or a ValueError naming the key and what it may be. With eval=net the
    value weights for `n_players` must be loaded: the core never quietly falls back on the hand formula."""
    _check_keys(d, SEARCH_KEYS + ("turns",) if with_turns else SEARCH_KEYS)
    cfg.iterations = _number(d, "iterations", 0, 2147483647, True)
    cfg.seconds = _number(d, "seconds", 0, 86400.0, False)
    cfg.c = _number(d, "c", 0, 100, False)
    cfg.final_best_mean = _choice(d, "final")
    cfg.reward = _choice(d, "reward")
    cfg.mix = _number(d, "mix", 0, 1, False)
    cfg.margin_scale = _number(d, "margin_scale", 1e-6, 1000, False)
    cfg.rollout_policy = _choice(d, "rollout")
    cfg.epsilon = _number(d, "epsilon", 0, 1, False)
    cfg.rollout_turns = _number(d, "rollout_turns", 0, 10000, True)
    cfg.fpu = _number(d, "fpu", 0, 1, False)
    if not isinstance(d["prior"], bool):
        raise ValueError(f"prior: {d['prior']!r} is not true or false")
    cfg.use_prior = 1 if d["prior"] else 0
    cfg.pw_k = _number(d, "pw_k", 0, 1e6, False)
    cfg.pw_alpha = _number(d, "pw_alpha", 0, 1, False)
    cfg.eval_kind = _choice(d, "eval")
    cfg.chance_merge = _choice(d, "chance")
    cfg.root_floor = _number(d, "root_floor", 0, 1, False)
    cfg.focus = _number(d, "focus", 0, 0.9, False)
    cfg.focus_turns = _number(d, "focus_turns", 2, 64, True)
    cfg.policy_w = _number(d, "policy", 0, 100, False)
    cfg.seed = <uint64_t>(int(_number(d, "seed", 0, 18446744073709551615, True)) & 0xFFFFFFFFFFFFFFFF)
    if with_turns:
        _number(d, "turns", 0, 4096, True)
    if cfg.iterations <= 0 and cfg.seconds <= 0:
        raise ValueError("iterations, seconds: give a budget (iterations > 0 or seconds > 0)")
    if cfg.eval_kind == EVAL_NET and not (2 <= n_players <= MAX_P and g_value[n_players].ready):
        raise ValueError(f"eval: net, but no value weights are loaded for {n_players} players "
                         "(concordia_ai.ai.value.ensure_loaded loads the shipped ones; SearchConfig.core_dict "
                         "calls it)")
    if (cfg.policy_w > 0 or cfg.rollout_policy == POL_POLICY) and not policy_ready(n_players):
        # a search that asks for the policy runs with it or not at all (never a silent fallback)
        asked = f"policy={cfg.policy_w:g}" if cfg.policy_w > 0 else "rollout=policy"
        raise ValueError(f"the search asks for the policy prior ({asked}) but no policy weights are loaded "
                         f"for {n_players} players (load them with concordia_ai.ai.policy.load())")


def search_config(CoreState root not None, dict config not None):
    """The settings as the core took them into its struct, read back (tests: every key reaches the core)."""
    cdef SearchConfig cfg
    _require_game(root)
    fill_config(&cfg, config, root.s.n_players, False)
    return dict(iterations=cfg.iterations, seconds=cfg.seconds, c=cfg.c,
                final=SEARCH_CHOICES["final"][cfg.final_best_mean], reward=SEARCH_CHOICES["reward"][cfg.reward],
                mix=cfg.mix, margin_scale=cfg.margin_scale, rollout=SEARCH_CHOICES["rollout"][cfg.rollout_policy],
                epsilon=cfg.epsilon, rollout_turns=cfg.rollout_turns, fpu=cfg.fpu, prior=bool(cfg.use_prior),
                pw_k=cfg.pw_k, pw_alpha=cfg.pw_alpha, eval=SEARCH_CHOICES["eval"][cfg.eval_kind],
                chance=SEARCH_CHOICES["chance"][cfg.chance_merge], root_floor=cfg.root_floor, focus=cfg.focus,
                focus_turns=cfg.focus_turns, policy=cfg.policy_w, seed=cfg.seed)


def search(CoreState root not None, dict config not None, StopToken stop=None, named=None, outcome=None):
    """Run ISMCTS for the player deciding at `root`. Returns a dict of root statistics (see search.py).
    With `stop`, another thread may end the search early (`stopped` in the result). `outcome`: the
    final-result model's (k, d, sigma) for this position (concordia_ai/ai/outcome.py), by which the final
    choice halves; None: by mean reward.

    With `focus` > 0 in the config, the last `focus` share of the budget is a final choice over whole
    turns (_focus: sequential halving among the `focus_turns` most visited ones). `named` whole turns
    (lists of action codes, each a whole turn of the player deciding at `root`) join that choice's
    candidates, so each gets figures from this same tree; with focus 0 they get a tenth of the budget."""
    cdef SearchConfig cfg, main
    cdef int* stop_flag = NULL
    cdef Tree t
    cdef int32_t iters = 0
    cdef double secs = 0.0
    cdef int ch, node
    cdef Node nd
    cdef double focus
    cdef int64_t budget
    _require_game(root)
    if root.s.phase == PH_OVER or root.s.decider < 0:
        raise ValueError("no player decides in this position (game over or a card to reveal)")
    fill_config(&cfg, config, root.s.n_players, True)
    model = _outcome_tuple(outcome)
    focus = cfg.focus
    focus_turns = cfg.focus_turns
    named_turns = _check_named(root, named)
    if named_turns and focus <= 0:
        focus = 0.1
    main = cfg
    if focus > 0:
        if cfg.iterations > 0:
            main.iterations = max(1, <int32_t>(cfg.iterations * (1.0 - focus)))
        if cfg.seconds > 0:
            main.seconds = cfg.seconds * (1.0 - focus)
    if stop is not None:
        stop_flag = &stop.flag
    t.cap = 1024
    t.n = 0
    t.failed = 0
    t.nodes = <Node*>malloc(sizeof(Node) * t.cap)
    if t.nodes == NULL:
        raise MemoryError()
    try:
        with nogil:
            ismcts(&root.s, &main, &t, &iters, &secs, stop_flag, NULL, 0)
        marks, choice = {}, None
        if focus > 0 and not t.failed and not (stop is not None and stop.stopped):
            # what is left of the budget, in iterations (a time budget at the rate the tree just ran)
            budget = -1
            if cfg.iterations > 0:
                budget = cfg.iterations - iters
            if cfg.seconds > 0:
                left = <int64_t>(iters / max(secs, 1e-9) * max(0.0, cfg.seconds - secs))
                budget = left if budget < 0 else min(budget, left)
            marks, choice, extra_it, extra_s = _focus(root, &cfg, &t, max(0, budget), focus_turns, named_turns,
                                                      stop_flag, model)
            iters += extra_it
            secs += extra_s
        children = []
        ch = t.nodes[0].child
        while ch >= 0:
            nd = t.nodes[ch]
            pv = [nd.action]
            node = ch
            while t.nodes[node].child >= 0 and len(pv) < 24:
                node = _most_visited(&t, node)
                if node < 0 or t.nodes[node].visits < 2:
                    break
                pv.append(t.nodes[node].action)
            children.append(dict(action=nd.action, visits=nd.visits, mean=nd.w / max(1, nd.visits),
                                 win=nd.win / max(1, nd.visits), vp=nd.vp / max(1, nd.visits),
                                 margin=nd.margin / max(1, nd.visits), win2=nd.win2 / max(1, nd.visits),
                                 vp2=nd.vp2 / max(1, nd.visits), margin2=nd.margin2 / max(1, nd.visits), pv=pv,
                                 **_terminal_stats(&nd, root.s.n_players)))
            ch = nd.sibling
        key = (lambda c: (c["mean"], c["visits"])) if cfg.final_best_mean else (lambda c: (c["visits"], c["mean"]))
        children.sort(key=key, reverse=True)
        # whole turns of the deciding player (collect_turns below); `turns` caps how many are reported
        turns = _turn_dicts(&t, &root.s, config["turns"], cfg.seed, marks)
        return dict(children=children, iterations=iters, nodes=t.n, bytes=t.n * sizeof(Node),
                    bytes_per_node=sizeof(Node), seconds=secs, root_visits=t.nodes[0].visits,
                    out_of_memory=bool(t.failed), stopped=stop is not None and stop.stopped, turns=turns,
                    choice=choice,
                    **_terminal_stats(&t.nodes[0], root.s.n_players))
    finally:
        free(t.nodes)


cdef list _check_named(CoreState root, named):
    """Named turns as lists of action codes, each checked to be a whole turn of the player deciding at
    the root (legal step by step, ending the turn exactly at its last step)."""
    cdef State st
    cdef int p = root.s.decider
    cdef int32_t turn = root.s.turns
    out = []
    if named is None:
        return out
    if len(named) > 16:
        raise ValueError(f"named turns: {len(named)} given, at most 16")
    for k, moves in enumerate(named):
        acts = list(moves)
        if not 1 <= len(acts) <= MAX_TURN_LEN:
            raise ValueError(f"named turn {k + 1}: {len(acts)} moves; a whole turn has 1..{MAX_TURN_LEN}")
        memcpy(&st, &root.s, sizeof(State))
        st.order_known = 0
        st.chance_external = 1
        for j, a in enumerate(acts):
            if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < 2 ** 31:
                raise ValueError(f"named turn {k + 1}: move {j + 1} is {a!r}, not an action code")
            if turn_over(&st, p, turn):
                raise ValueError(f"named turn {k + 1}: the turn ends after move {j}, before move {j + 1}")
            if not action_legal(&st, <int32_t>a):
                raise ValueError(f"named turn {k + 1}: move {j + 1} ({a}) is not legal there")
            apply_action(&st, <int32_t>a)
        if not turn_over(&st, p, turn):
            raise ValueError(f"named turn {k + 1}: not a whole turn (the player still decides after move {len(acts)})")
        out.append(acts)
    return out


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
                keys[i] = (_shown_share(&t.nodes[node], root.s.n_players, root.s.decider, outcome),
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
        while c["named"] >= 0 and not stopped and not t.failed and tries <= n and find_path(t, path, n) < 0:
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


cdef dict _terminal_stats(const Node* nd, int n):
    """A node's statistics for the final-result model: every seat's mean estimated final VP over all its
    iterations (`seat_vp`), and over those that reached the game's end (exact: `term` of them) the seats'
    win rates, final VP and the root player's margin."""
    cdef int k, v = max(1, nd.visits), e = max(1, nd.term)
    return dict(seat_vp=[nd.seat_vp[k] / v for k in range(n)], term=nd.term,
                term_win=[nd.term_win[k] / e for k in range(n)], term_vp=[nd.term_vp[k] / e for k in range(n)],
                term_margin=nd.term_margin / e)


cdef tuple _outcome_tuple(outcome):
    if outcome is None:
        return None
    kk, dd, sigma = (float(x) for x in outcome)
    if not (isfinite(kk) and isfinite(dd) and isfinite(sigma) and kk > 0 and sigma > 0):
        raise ValueError(f"outcome: {outcome!r} is not (k > 0, d, sigma > 0), all finite")
    return (kk, dd, sigma)


def shown_share(seat_vp, int decider, outcome):
    """_shown_share for given mean seat VPs (a test holds it equal to concordia_ai.ai.outcome)."""
    cdef Node nd
    cdef int i, n = len(seat_vp)
    if not 2 <= n <= MAX_P or not 0 <= decider < n:
        raise ValueError("shown_share: 2-5 seats and a deciding seat among them")
    memset(&nd, 0, sizeof(Node))
    nd.visits = 1
    for i in range(n):
        nd.seat_vp[i] = seat_vp[i]
    return _shown_share(&nd, n, decider, _outcome_tuple(outcome))


cdef double _shown_share(const Node* nd, int n, int decider, tuple outcome):
    """The deciding seat's win share through node nd under the final-result model (k, d, sigma): over the
    iterations that reached the game's end, its exact win rate; over the others, softmax over the seats of
    m_i / sigma with m_i = k (mu_i - mean mu) - d [i = decider], mu_i the seat's mean estimated final VP
    over them (the same formula as concordia_ai/ai/outcome.py, which a test compares). The mean reward
    without a model."""
    cdef double m[MAX_P]
    cdef double mean = 0.0, top = -1e300, total = 0.0, kk, dd, sigma, cut_share
    cdef int i, cut
    if outcome is None or nd.visits <= 0:
        return nd.w / max(1, nd.visits)
    cut = nd.visits - nd.term
    if cut <= 0:
        return nd.term_win[decider] / nd.term
    kk, dd, sigma = outcome
    for i in range(n):
        m[i] = (nd.seat_vp[i] - nd.term_vp[i]) / cut
        mean += m[i]
    mean /= n
    for i in range(n):
        m[i] = kk * (m[i] - mean) - (dd if i == decider else 0.0)
        if m[i] > top:
            top = m[i]
    for i in range(n):
        total += exp((m[i] - top) / sigma)
    cut_share = exp((m[decider] - top) / sigma) / total
    return (nd.term_win[decider] + cut * cut_share) / nd.visits


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


cdef int _most_visited(Tree* t, int node) noexcept nogil:
    cdef int ch = t.nodes[node].child, best = -1, bv = -1
    while ch >= 0:
        if t.nodes[ch].visits > bv:
            bv = t.nodes[ch].visits
            best = ch
        ch = t.nodes[ch].sibling
    return best


def choose_greedy(CoreState st not None, seed, bint plan=False):
    """The greedy bot's move (one-step lookahead), or with plan=True the heuristic bot's (whole-turn lookahead)."""
    cdef int32_t acts[MAX_ACTIONS]
    cdef uint64_t r = seed_mix(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    cdef int n, i
    _require_game(st)
    n = gen_legal(&st.s, acts)
    if n <= 0:
        raise ValueError("no legal move")
    if st.s.decider < 0:
        return acts[rng_below(&r, n)]
    with nogil:
        i = plan_index(&st.s, acts, n, &r) if plan else greedy_index(&st.s, acts, n, &r)
    return acts[i]


def evaluate_state(CoreState st not None):
    """The heuristic's estimate of every player's final score."""
    cdef float v[MAX_P]
    _require_game(st)
    evaluate(&st.s, v)
    return [v[p] for p in range(st.s.n_players)]


cdef void flat_mc(const State* root, const SearchConfig* cfg, int32_t* acts, int n, double* sums, int32_t* counts,
                  int32_t* done_iterations) noexcept nogil:
    """Flat Monte Carlo: the budget spread evenly over the legal moves, each judged by its rollouts."""
    cdef State st
    cdef uint64_t r = seed_mix(cfg.seed)
    cdef float rew[MAX_P]
    cdef float val[MAX_P]
    cdef float winp[MAX_P]
    cdef int it = 0, i, terminal, p = root.decider
    cdef double t0 = cc_thread_seconds()
    while True:
        if cfg.iterations > 0 and it >= cfg.iterations:
            break
        if cfg.seconds > 0 and (it & 15) == 0 and cc_thread_seconds() - t0 >= cfg.seconds:
            break
        i = it % n
        memcpy(&st, root, sizeof(State))
        st.order_known = 0
        st.chance_external = 0
        st.rng = rng_next(&r)
        apply_action(&st, acts[i])
        terminal = rollout(&st, cfg, &r)
        reward_vector(&st, cfg, val, winp, rew, terminal)
        sums[i] += rew[p]
        counts[i] += 1
        it += 1
    done_iterations[0] = it


def flat_monte_carlo(CoreState root not None, dict config not None):
    """Mean reward of each legal move for the player deciding at root: [(action, visits, mean)], iterations."""
    cdef SearchConfig cfg
    cdef int32_t acts[MAX_ACTIONS]
    cdef double sums[MAX_ACTIONS]
    cdef int32_t counts[MAX_ACTIONS]
    cdef int32_t iters = 0
    cdef int n, i
    _require_game(root)
    if root.s.phase == PH_OVER or root.s.decider < 0:
        raise ValueError("no player decides in this position (game over or a card to reveal)")
    fill_config(&cfg, config, root.s.n_players, False)
    n = gen_legal(&root.s, acts)
    memset(sums, 0, sizeof(sums))
    memset(counts, 0, sizeof(counts))
    with nogil:
        flat_mc(&root.s, &cfg, acts, n, sums, counts, &iters)
    return [(acts[i], counts[i], sums[i] / max(1, counts[i])) for i in range(n)], iters


# ---------------------------------------------------------------- whole turns from a search tree
from libc.stdlib cimport qsort
#
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
            turns.append(dict(actions=[acts[j] for j in range(n)], tree_len=rec.len, partial=bool(rec.partial),
                              visits=nd.visits, mean=nd.w / max(1, nd.visits), win=nd.win / max(1, nd.visits),
                              vp=nd.vp / max(1, nd.visits), margin=nd.margin / max(1, nd.visits),
                              margin2=nd.margin2 / max(1, nd.visits),
                              after=after if not rec.partial else [], focus=focus, named=named,
                              candidate=candidate,
                              **_terminal_stats(&nd, root.n_players)))
        return turns
    finally:
        free(out.recs)
        free(out.path)
