# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Concordia rules core.

Everything that runs per step lives here as nogil C functions over a fixed-size `State` struct:
legal sub-decisions, apply, chance, scoring, random playouts. The Python face (`concordia_ai.engine.game`)
crosses into this module once per call, never per step of a playout.

A turn is a sequence of sub-decisions (see core.pxd for the structs and the action encoding). Where the same outcome
could be reached through several orders of sub-decisions, the generator allows one canonical order
(see docs/engine.md, "Canonical orders"), so the search sees each outcome once. Tests can switch the
canonical orders off (`set_all_orders`) to check that no outcome is lost.
"""
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.time cimport clock, CLOCKS_PER_SEC

cdef Rules g_rules
cdef Board g_boards[8]
cdef int g_rules_ready = 0
cdef int g_board_ready[8]
cdef int g_all_orders = 0    # tests only: offer every order of the sub-decisions, not just the canonical one

NO_GOOD = 255
CHANCE = DECIDER_CHANCE
NOBODY = DECIDER_NONE
ROUTE_OFFSET = ROUTE_BASE
STORE = LOC_STORE
MAX_PLAYERS = MAX_P
N_SCORE_COLUMNS = NSCORE
PHASES = {PH_PLAY: "play", PH_DIPLOMAT: "diplomat", PH_TRIBUNE: "tribune", PH_ARCH_MOVE: "architect-move",
          PH_ARCH_BUILD: "architect-build", PH_PREFECT: "prefect", PH_MERCATOR: "mercator",
          PH_SENATOR: "senator", PH_CONSUL: "consul", PH_COLONIST: "colonist", PH_KEEP: "keep",
          PH_CHANCE: "chance", PH_OVER: "over", PH_SQUARE: "square"}
ACTION_TYPES = {A_PLAY: "play", A_COPY: "copy", A_DONE: "done", A_TRIB_COL: "tribune-colonist",
                A_MOVE: "move", A_BUILD: "build", A_PRODUCE: "produce", A_CASH: "cash", A_KEEP: "keep",
                A_SELL: "sell", A_BUY: "buy", A_CARD: "card", A_PLACE: "place", A_COLCASH: "colonist-cash",
                A_REVEAL: "reveal", A_ENTER: "enter"}
CARD_ACTIONS = {"Tribune": C_TRIBUNE, "Architect": C_ARCHITECT, "Prefect": C_PREFECT, "Mercator": C_MERCATOR,
                "Diplomat": C_DIPLOMAT, "Senator": C_SENATOR, "Colonist": C_COLONIST, "Consul": C_CONSUL}
OPTION_WINE_VARIANT = OPT_WINE_VARIANT
OPTION_INTERMEDIATE = OPT_INTERMEDIATE


# The rules core, one job per file (declarations in core.pxd):
include "rng.pxi"             # xorshift random numbers, seeded per game and per search
include "helpers.pxi"         # small inline helpers over players, routes and the display
include "setup.pxi"           # a new game: the deal, markers and derived fields
include "turn_flow.pxi"       # turn flow: card effects, the end of a turn, refilling the display, the game end
include "legal.pxi"           # legal sub-decisions of every phase, in canonical order (Architect movement first)
include "apply.pxi"           # applying a sub-decision to a state
include "scoring.pxi"         # scoring 'if the game ended now', ranking; chance (re-dealing the unseen cards) and random playouts
include "invariants.pxi"      # invariants that every reachable state keeps (tests and debugging)
include "registration.pxi"    # registering the rules and boards from the content layer
include "state_object.pxi"    # CoreState, the Python face of a state: moves, export and load, pickling
include "bench.pxi"           # benchmarks of the rules core in C

# Search and evaluation over the core:
include "value.pxi"           # the value model's forward pass (weights loaded from Python)
include "policy.pxi"          # the policy prior over legal sub-decisions (weights loaded from Python)
include "search_tree.pxi"     # the search's settings (SearchConfig) and tree: nodes, growing and walking it
include "heuristics.pxi"      # the hand evaluation, the rewards at a playout's end, the greedy and plan players
include "puct.pxi"            # PUCT selection with first-play urgency: a prior per node, computed once
include "ismcts.pxi"          # the ISMCTS loop: selection, expansion, rollout, backup
include "turns.pxi"           # whole turns from a tree: collecting turn ends, completing partial turns, export
include "final_choice.pxi"    # the final choice over whole turns: sequential halving by the shown win share
include "search_face.pxi"     # the search's Python face: StopToken, the settings' check (fill_config), search()
include "flat_mc.pxi"         # flat Monte Carlo over the root's legal moves
