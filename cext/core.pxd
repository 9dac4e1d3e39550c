# The Concordia rules core: the C structs, enums and action encoding (core.pyx includes the functions over
# them, one .pxi per job). The nogil functions are declared where they are defined, not here: a function
# declared in the .pxd is exported through the module's C-API capsule, which takes its address, and gcc then
# keeps the single-caller functions out of line (+4.6 % instructions on the default search, by callgrind).
# A State is a fixed-size struct with no Python objects inside: copy it with memcpy.
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t

cdef enum:
    MAX_P = 5
    NGOODS = 5
    MAX_CITIES = 40        # cities, the start city and special squares (Aegyptus)
    MAX_ROUTES = 96
    MAX_PROV = 16
    MAX_KINDS = 24         # distinct playable card kinds (name, god, coins)
    MAX_MARKET = 32
    DISPLAY = 7
    NCOL = 6               # colonists per player: 0..2 land, 3..5 sea
    ROUTE_BASE = 64        # colonist location >= ROUTE_BASE: on route (loc - ROUTE_BASE)
    LOC_STORE = -1
    MAX_ACTIONS = 1024
    NSCORE = 9             # Vesta Jupiter Saturnus Mercurius Mars Minerva Concordia Squares Total

# card actions
cdef enum:
    C_TRIBUNE = 0
    C_ARCHITECT = 1
    C_PREFECT = 2
    C_MERCATOR = 3
    C_DIPLOMAT = 4
    C_SENATOR = 5
    C_COLONIST = 6
    C_CONSUL = 7
    C_SPECIALIST = 8

# gods
cdef enum:
    G_VESTA = 0
    G_JUPITER = 1
    G_SATURNUS = 2
    G_MERCURIUS = 3
    G_MARS = 4
    G_MINERVA = 5

# goods
cdef enum:
    BRICK = 0
    FOOD = 1
    TOOL = 2
    WINE = 3
    CLOTH = 4

# action types: an action is type | a << 8 | b << 16
cdef enum:
    A_PLAY = 1       # a = card kind
    A_COPY = 2       # a = card kind on another player's discard pile (Diplomat)
    A_DONE = 3
    A_TRIB_COL = 4   # a = 0 land / 1 sea: the Tribune's colonist into the start city
    A_MOVE = 5       # a = colonist index, b = route
    A_BUILD = 6      # a = city
    A_PRODUCE = 7    # a = province, b = chosen good for a variable bonus (Gavdos) else 255
    A_CASH = 8       # Prefect cash bonus
    A_KEEP = 9       # a = good kept from an overflowing gain
    A_SELL = 10      # a = good, b = units
    A_BUY = 11       # a = good, b = units
    A_CARD = 12      # a = display slot, b = good paying the 'any' surcharge or 255
    A_PLACE = 13     # a = 0 land / 1 sea, b = city (Colonist card)
    A_COLCASH = 14   # Colonist card cash option
    A_REVEAL = 15    # a = market card id revealed from the stack (chance)
    A_ENTER = 16     # a = sea route to a special square: its own colonist there enters the square (Aegyptus)

# phases: what the decider is asked
cdef enum:
    PH_PLAY = 1
    PH_DIPLOMAT = 2
    PH_TRIBUNE = 3
    PH_ARCH_MOVE = 4
    PH_ARCH_BUILD = 5
    PH_PREFECT = 6
    PH_MERCATOR = 7
    PH_SENATOR = 8
    PH_CONSUL = 9
    PH_COLONIST = 10
    PH_KEEP = 11
    PH_CHANCE = 12
    PH_OVER = 13
    PH_SQUARE = 14   # Aegyptus: which of several own lines to a square sends its colonist onto it

cdef enum:
    DECIDER_NONE = -1
    DECIDER_CHANCE = -2

cdef enum:
    OPT_WINE_VARIANT = 1
    OPT_INTERMEDIATE = 2

ctypedef struct Rules:
    int32_t price[NGOODS]
    int32_t house_coins[NGOODS]
    int8_t house_goods[NGOODS][NGOODS]      # by city good: goods paid
    int8_t colonist_cost[NGOODS]
    int32_t marker_coins[NGOODS]
    int8_t surcharge[2][DISPLAY][NGOODS]    # [standard / wine variant][position][good]
    int8_t surcharge_any[2][DISPLAY]
    int32_t n_kinds
    int8_t kind_action[MAX_KINDS]
    int8_t kind_god[MAX_KINDS]
    int8_t kind_coins[MAX_KINDS]            # Mercator coins
    int8_t kind_good[MAX_KINDS]             # specialist good, -1 otherwise
    int8_t kind_minerva[MAX_KINDS]
    int32_t n_market
    int8_t card_kind[MAX_MARKET]
    int8_t card_deck[MAX_MARKET]            # 0 = I .. 4 = V
    int8_t card_cost[MAX_MARKET][NGOODS]
    int8_t start_hand[MAX_KINDS]
    int8_t start_goods[NGOODS]
    int32_t coins_by_seat[MAX_P]
    int32_t houses
    int32_t slots
    int32_t concordia_vp
    int8_t tokens[4][NGOODS]                # city-token pools A..D

ctypedef struct Board:
    int32_t n_cities
    int32_t start_city
    int32_t n_provinces
    int32_t n_routes
    int8_t city_province[MAX_CITIES]        # -1: start city or special square
    int8_t city_letter[MAX_CITIES]          # 0..3 = A..D, -1 none
    int8_t city_special[MAX_CITIES]         # 1: FRANKINCENSE / GOLD square (not a city)
    int8_t route_a[MAX_ROUTES]
    int8_t route_b[MAX_ROUTES]
    int8_t route_sea[MAX_ROUTES]
    int8_t route_cap[MAX_ROUTES]            # 0 = any number of colonists
    int8_t route_square[MAX_ROUTES]         # special square at one end, else -1
    uint64_t route_ends[MAX_ROUTES]         # bitmask of the two end cities
    uint64_t province_mask[MAX_PROV]
    uint8_t dist_rr[MAX_ROUTES][MAX_ROUTES] # steps from route to route (same kind), 255 = unreachable
    uint8_t dist_cr[MAX_CITIES][MAX_ROUTES] # steps from a city onto a route
    int8_t variable_province                # Creta Gavdos, else -1
    int8_t cash_extra                       # Creta: +2 on every cash bonus
    int8_t n_nile
    int8_t nile[8]                          # Aegyptus flood order, provinces
    uint32_t frank_provinces                # Aegyptus: producing here pays FRANKINCENSE holders
    int8_t frank_square
    int8_t gold_square
    int8_t frank_coins
    int8_t square_vp

ctypedef struct Player:
    int32_t coins
    int8_t goods[NGOODS]
    int16_t col[NCOL]
    uint8_t hand[MAX_KINDS]
    uint8_t discard[MAX_KINDS]
    int8_t top
    int8_t n_houses
    int8_t houses_by_good[NGOODS]
    int8_t inter_done
    int16_t inter_vp
    uint64_t houses

ctypedef struct State:
    int8_t board_id
    int8_t n_players
    int8_t options
    int8_t phase
    int8_t decider
    int8_t turn_player
    int8_t pm_holder
    int8_t order_known      # the stack array is the true order (simulation)
    int8_t chance_external  # unknown order and no sampling: reveals are entered from outside
    int8_t city_good[MAX_CITIES]
    int8_t marker_coin[MAX_PROV]   # 1: coin side up
    int8_t marker_good[MAX_PROV]   # the good on the marker (-1: Gavdos empty)
    int8_t display[DISPLAY]
    int8_t stack[MAX_MARKET]       # top of the stack is stack[stack_len - 1]
    int8_t stack_len
    int8_t nile_pos
    int8_t city_houses[MAX_CITIES]
    uint8_t route_occ[MAX_ROUTES]
    # the card being resolved and its scratch
    int8_t act_kind
    int8_t steps
    int8_t moved
    int16_t arch_from[NCOL]   # where each moved colonist stood when the Architect began
    int8_t pick_last          # the last city built (Architect) or display slot bought (Senator), else -1
    int8_t merc_sold_last
    int8_t merc_bought_last
    int8_t merc_kinds
    int8_t merc_sold_mask
    int8_t buys
    int8_t col_last
    int8_t col_cash_ok
    int8_t keep_player
    int8_t keep_last
    int8_t pend[MAX_P][NGOODS]
    # game end
    int8_t end_player      # who holds the Concordia card, -1
    int8_t end_this_turn   # the trigger happened in the current turn
    int8_t final_turns
    int8_t inter_paid
    int32_t turns
    uint64_t rng
    Player pl[MAX_P]
