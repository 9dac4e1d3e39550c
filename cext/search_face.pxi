# The search's Python face: StopToken, the settings' keys and fill_config, search() and the figures of its result.
from libc.stdlib cimport malloc, free
from libc.math cimport isfinite
from libc.stdint cimport int64_t

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
               "policy", "select", "c_puct", "c_puct_log", "c_puct_base", "fpu_reduction", "fpu_scaled", "prior_temp",
               "leaf_mix", "minimax_mix", "opponents", "value_slot", "policy_slot", "seed")
# the words of the choice keys, in the order of the core's codes (RW_*, POL_*, EVAL_*, ...)
SEARCH_CHOICES = {"final": ("visits", "mean"), "reward": ("win", "rank", "margin", "mix"),
                  "rollout": ("random", "greedy", "none", "policy"), "eval": ("hand", "net"), "chance": ("branch", "merge"),
                  "select": ("ucb", "puct"), "opponents": ("tree", "random", "greedy", "policy", "oma")}


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
    cfg.select = _choice(d, "select")
    cfg.c_puct = _number(d, "c_puct", 0, 100, False)
    cfg.c_puct_log = _number(d, "c_puct_log", 0, 100, False)
    cfg.c_puct_base = _number(d, "c_puct_base", 1, 1e9, False)
    cfg.fpu_reduction = _number(d, "fpu_reduction", 0, 1, False)
    if not isinstance(d["fpu_scaled"], bool):
        raise ValueError(f"fpu_scaled: {d['fpu_scaled']!r} is not true or false")
    cfg.fpu_scaled = 1 if d["fpu_scaled"] else 0
    cfg.prior_temp = _number(d, "prior_temp", 1e-3, 1000, False)
    cfg.value_slot = _number(d, "value_slot", 0, W_SLOTS - 1, True)
    cfg.policy_slot = _number(d, "policy_slot", 0, W_SLOTS - 1, True)
    cfg.leaf_mix = _number(d, "leaf_mix", 0, 1, False)
    cfg.minimax_mix = _number(d, "minimax_mix", 0, 1, False)
    cfg.opponents = _choice(d, "opponents")
    cfg.seed = <uint64_t>(int(_number(d, "seed", 0, 18446744073709551615, True)) & 0xFFFFFFFFFFFFFFFF)
    if cfg.opponents == OPP_OMA and (cfg.select != SEL_PUCT or cfg.minimax_mix > 0):
        # the shared node after another seat's move is chosen through by PUCT only, and has no state of its own
        # for an implicit minimax value
        raise ValueError("opponents: oma needs select=puct and minimax_mix=0")
    if with_turns:
        _number(d, "turns", 0, 4096, True)
    if cfg.iterations <= 0 and cfg.seconds <= 0:
        raise ValueError("iterations, seconds: give a budget (iterations > 0 or seconds > 0)")
    if cfg.eval_kind == EVAL_NET and not (2 <= n_players <= MAX_P and g_value[cfg.value_slot][n_players].ready):
        raise ValueError(f"eval: net, but no value weights are loaded for {n_players} players in slot "
                         f"{cfg.value_slot} (concordia_ai.ai.value.ensure_loaded loads the shipped ones into slot 0, "
                         "weight_slots.slot_for a directory's into its own; SearchConfig.core_dict calls them)")
    if (cfg.policy_w > 0 or cfg.rollout_policy == POL_POLICY or cfg.opponents == OPP_POLICY) \
            and not policy_ready(n_players, cfg.policy_slot):
        # a search that asks for the policy runs with it or not at all (never a silent fallback)
        asked = (f"policy={cfg.policy_w:g}" if cfg.policy_w > 0 else
                 "rollout=policy" if cfg.rollout_policy == POL_POLICY else "opponents=policy")
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
                focus_turns=cfg.focus_turns, policy=cfg.policy_w,
                select=SEARCH_CHOICES["select"][cfg.select], c_puct=cfg.c_puct, c_puct_log=cfg.c_puct_log,
                c_puct_base=cfg.c_puct_base, fpu_reduction=cfg.fpu_reduction, fpu_scaled=bool(cfg.fpu_scaled),
                prior_temp=cfg.prior_temp, leaf_mix=cfg.leaf_mix, minimax_mix=cfg.minimax_mix,
                opponents=SEARCH_CHOICES["opponents"][cfg.opponents], value_slot=cfg.value_slot,
                policy_slot=cfg.policy_slot, seed=cfg.seed)


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
    t.stats = NULL
    t.n_stats = 0
    t.cap_stats = 0
    t.prior_calls = 0
    t.mm = NULL
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
            if nd.visits == 0:
                ch = nd.sibling       # a move PUCT has not tried (made with its prior): no figures to report
                continue
            pv = [nd.action]
            node = ch
            while t.nodes[node].child >= 0 and len(pv) < 24:
                node = _most_visited(&t, node)
                if node < 0 or t.nodes[node].visits < 2:
                    break
                pv.append(t.nodes[node].action)
                node = line_on(&t, node)
            children.append(dict(action=nd.action, visits=nd.visits, mean=nd.w / max(1, nd.visits),
                                 win=nd.win / max(1, nd.visits), vp=nd.vp / max(1, nd.visits),
                                 margin=nd.margin / max(1, nd.visits),
                                 vp2=nd.vp2 / max(1, nd.visits), pv=pv, **_report_stats(&t, ch, root.s.n_players)))
            ch = nd.sibling
        key = (lambda c: (c["mean"], c["visits"])) if cfg.final_best_mean else (lambda c: (c["visits"], c["mean"]))
        children.sort(key=key, reverse=True)
        # whole turns of the deciding player (collect_turns below); `turns` caps how many are reported
        turns = _turn_dicts(&t, &root.s, config["turns"], cfg.seed, marks)
        return dict(children=children, iterations=iters, nodes=t.n, bytes=t.n * sizeof(Node),
                    bytes_per_node=sizeof(Node), seconds=secs, root_visits=t.nodes[0].visits,
                    out_of_memory=bool(t.failed), stopped=stop is not None and stop.stopped, turns=turns,
                    choice=choice, prior_calls=t.prior_calls, expanded=_expanded_nodes(&t),
                    opponent_nodes=_opponent_nodes(&t, root.s.decider), shared_nodes=_shared_nodes(&t),
                    opponent_parents=_opponent_parents(&t, root.s.decider),
                    **_report_stats(&t, 0, root.s.n_players))
    finally:
        tree_free(&t)


cdef int _expanded_nodes(const Tree* t) noexcept nogil:
    """Decision nodes with children (a chance node's children are outcomes, mover -1): with PUCT each had its
    prior computed once (tests compare prior_calls with this)."""
    cdef int i, n = 0
    cdef int ch
    for i in range(t.n):
        ch = t.nodes[i].child
        if ch >= 0 and t.nodes[ch].action == OMA_NEXT:
            ch = t.nodes[ch].sibling        # the shared node of opponents = oma comes after the moves it follows
        if ch >= 0 and t.nodes[ch].mover >= 0:
            n += 1
    return n


cdef int _opponent_nodes(const Tree* t, int seat) noexcept nogil:
    """Nodes where another seat than `seat` moves: none when the others play outside the tree (opponents)."""
    cdef int i, n = 0
    for i in range(t.n):
        if t.nodes[i].mover >= 0 and t.nodes[i].mover != seat:
            n += 1
    return n


cdef int _shared_nodes(const Tree* t) noexcept nogil:
    """The shared nodes that follow another seat's moves (opponents = oma; none otherwise)."""
    cdef int i, n = 0
    for i in range(t.n):
        if t.nodes[i].action == OMA_NEXT:
            n += 1
    return n


cdef int _opponent_parents(const Tree* t, int seat) noexcept nogil:
    """Moves of another seat than `seat` with children of their own: none under opponents = oma, where what
    follows such a move is the shared node beside it."""
    cdef int i, n = 0
    for i in range(t.n):
        if t.nodes[i].mover >= 0 and t.nodes[i].mover != seat and t.nodes[i].child >= 0:
            n += 1
    return n


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


cdef dict _report_stats(const Tree* t, int node, int n):
    """A node's statistics for the final-result model (ReportStats; zeros for a node without them): the
    root player's mean margin's square, mean square win value and mean margin x win value (the spread
    and covariance behind the one standard error), every seat's mean estimated final VP and win value over all its
    iterations (`seat_vp`, `seat_win`), and over those that reached the game's end (exact: `term` of them)
    the seats' win rates, final VP and the root player's margin."""
    cdef ReportStats rs
    cdef int k, v = max(1, t.nodes[node].visits), e
    if t.nodes[node].stats >= 0:
        rs = t.stats[t.nodes[node].stats]
    else:
        memset(&rs, 0, sizeof(ReportStats))
    e = max(1, rs.term)
    return dict(margin2=rs.margin2 / v, margin_win=rs.margin_win / v, win2=t.nodes[node].win2 / v,
                seat_vp=[rs.seat_vp[k] / v for k in range(n)],
                seat_win=[rs.seat_win[k] / v for k in range(n)], term=rs.term,
                term_win=[rs.term_win[k] / e for k in range(n)], term_vp=[rs.term_vp[k] / e for k in range(n)],
                term_margin=rs.term_margin / e)