# The Police Precinct state as one flat C struct (PState), for the compiled simulator of issue 22.
# Twin: solver/games/precinct/state.py (PrecinctState with board.py's Cop, Slot, Stack). This file
# is the layout only; ext/precinct_state.pyx converts a PrecinctState into it and back into a
# canonical dict (tests/test_precinct_kernel_state.py holds the two equal on seeded games). No rule
# is ported yet: the handlers of the 59 task kinds come next, one file per Python module.
#
# ---------------------------------------------------------------------------------------------------
# INVENTORY (read from state.py, board.py, tasks.py, turn.py, common.py, procedures.py,
# eventcards.py; the arg types were also recorded over ~440,000 states of seeded heuristic and
# 30%-random games at 1..8 players, which found no other shape)
#
# PrecinctState fields kept (all read by the rules):
#   n (== game.num_players), cops, order (cop indices in turn order; [] until setup_deal), at,
#   support (streets of the support vehicles), loyalty/revealed/underground (per seat bools ->
#   bitmasks here), dealt (loyalty cards dealt so far, to seats 0..dealt-1), peeks (per seat, the
#   seats whose loyalty it saw -> bitmask), punks[6], punk_supply, gangs[6] (-1 none, else a gang
#   marker index), gang_pool (marker indices, ORDER KEPT: outcomes and appends follow it), patrol[6],
#   patrol_stock, murderer (never written by the rules, always 0; kept for exactness), slots[16]
#   (None or Slot), serial, urgent (-1 or a slot), stacks[4], placed[4], police[kinds],
#   police_discard[kinds], events_left[kinds], event_top/event_bottom (lists of (kind, knower
#   seats)), event_discard[kinds], unknown[10], unknown_discard[10], unknown_unseen,
#   upgrades_left[4], donut_supply, turn_track, crime, turns, result (0 playing, +1 good won,
#   -1 lost), ctx, todo.
# Omitted (text and records only): game (a pointer the sim keeps apart), reason, history, events,
# records, marks.
# Derived, not stored by Python either: Stack.size (= evidence + useless), Stack.middle(),
# unknown_stack(), blocked(), cars_on(), covered(), board_complete(), murderer_hood() (from
# turn_track). Fields that are redundant but stored because Python stores them: n (the game's),
# dealt (after set-up it is 0 without loyalty cards, else n), murderer (always 0).
#
# Cop (board.py): seat, char, street, marked, donuts, hand (police kinds in the order received:
#   take_card removes the FIRST non-fresh copy, else the first fresh one), fresh (per hand card),
#   upgrades (in the order bought, at most 2 by the rules), swat, fed, out, hospital, skip_event,
#   arrests, switched, extra_move, no_draw, rewarded, empty. Every field is stored.
# Slot: card (event kind), at (AT_BUILDING 0, AT_CROSSING 1, AT_STREET 2, AT_HOOD 3), where
#   (street / intersection / street / hood 1..6), building (name -> index into game.city.buildings'
#   order, -1 for ""), unknown (-1 none, -2 face down, else the revealed marker kind), serial, data.
# Stack: building (name -> building index, -1 for "" before stack_block), evidence, useless, top and
#   bottom (lists of (is_evidence, knower seats); top first, bottom-most last), gone.
#
# Task kinds: 59 (27 decisions, 18 chances, 14 bookkeeping), numbered below; "cop" is a cop index,
# "seat" a seat, "e" a board slot, "kind" an event kind. String args become small codes (tables in
# ext/precinct_state.pyx, index = code): deck name -> DECKS index; discard reason DR_*; look reason
# LW_*; hood reason HW_*; rolled location RL_*; special roll SR_*. A rewards tuple (fed, reward) is
# packed as len | r0 << 3 | r1 << 6 | r2 << 9 | r3 << 12 (REWARDS indices < 8, at most 4; the content
# allows 2).
#   decisions by a cop (args[0] is the cop):
#     car(cop)                       set-up: the car's side
#     start(cop)                     turn start: switch at the station / play text cards (re-pushed)
#     move(cop)                      PHASE 1
#     support(cop, k)                move support vehicle k
#     discard(cop, reason)           reason "limit" | "hospital" | "gas"
#     action(cop)                    PHASE 2 (re-pushed after a text card)
#     claim(cop)                     place the evidence found or hide it (sets ctx hide)
#     officers(cop) swat(cop) donuts(cop)   add dice/cards to the procedure in ctx
#     help(cop)                      a help window (re-pushed after each card)
#     fed(cop, rewards)              use the Federal Agent token
#     second(cop)                    a second emergency after the token
#     reward(cop, rewards)           pick one reward
#     deck(cop, why)                 why "look2" | "insider" | "fresh": the stack to look at
#     order(cop, deck, k, why)       put k looked-at cards back (why "look2" | "fresh")
#     upgrade(cop)                   a second upgrade
#     donate(cop)                    donuts to the accusation in ctx
#     hood(cop, why)                 why "outreach" | "incite" | "officer"
#     dispatch(cop)                  place officers one by one (re-pushed)
#     tow(cop) target(cop) event_look(cop)
#     van(cop, e, start)             take escort van in slot e along from street start
#   decisions by a seat (args[0] is the seat): pick(seat), sabotage(seat), loyalty(seat)
#   chances:
#     deal_loyalty(seat) setup_punk() stack_block(deck name: "interview" | "weapon")
#     deal_police(cop, fresh 0/1) setup_emergency() event_draw(cop) peek_event(cop)
#     place_roll(kind, where "apartment" | "warehouse" | "hood", setup 0/1) punk_roll(setup 0/1)
#     special_roll(kind, what "riot" | "down" | "theft") gang(hood 1..6) gas(e) drive(e)
#     inv_draw(cop) look(cop, deck, k, why) arrest_roll(cop) em_roll(cop) unknown(e)
#   bookkeeping:
#     setup_deal() first_turn() turn_start(cop, first_ever 0/1) after_move(cop) police_phase(cop)
#     hand_limit(cop) end_turn(cop) event_phase(cop) resolve(cop or -1, kind, setup 0/1)
#     gas_fixed(cop, e) escape(e) inv_done(cop) take_reward(cop, reward index) accused(cop)
#   Every arg is an int (bools never appear: fresh, first_ever and setup are 0/1 ints).
#
# ctx (the procedure under way; {} when none), by kind, with its exact key sets:
#   investigate: cop, deck, n (cards to draw), sym (always 0 here) [+ sabotage]
#                [+ size, evidence_before, cards (list of bool, drawn order) after inv_draw]
#                [+ hide (bool) after claim; read with .get]
#   arrest:      cop, hood (1..6), murderer (bool), n (dice), sym, lookouts (bool) [+ sabotage]
#   escapees:    cop, slot, sym, n [+ sabotage]
#   emergency, officer_down: cop, slot, n, sym (emergency-symbol help, cancelled by hostage/bomb)
#                [+ sabotage]
#   accuse:      cop, target (seat), donors (list of (cop, donuts))
#   "sabotage" is read with .get(.., 0) and added by _sabotaged; "hide" with .get; "if not ctx" tests
#   emptiness (CTX_NONE). Presence is kept by the has_* flags so the dict comes back key for key.
#
# ---------------------------------------------------------------------------------------------------
# BOUNDS (every one checked by the converter, which raises BadStateError instead of overflowing; a
# ported rule must check the same ones where it grows an array):
#   PS_MAX_SEATS 8, PS_MAX_COPS 8   players 1..8 (spec.py); a seat plays one cop, solo plays two
#   PS_MAX_SUPPORT 2                the support_vehicles option's maximum (spec.py)
#   PS_MAX_HAND 32                  measured max 12; the limit is 7/9 at a turn's end, and a turn adds
#                                   a handful (draws, paperwork, rewards) to at most 7 dealt
#   PS_MAX_UPGRADES 4               one of each kind; the rules stop at 2
#   PS_MAX_SLOTS 16                 codec.MAX_SLOTS (the board's slots)
#   PS_MAX_POLICE_KINDS 32, PS_MAX_EVENT_KINDS 64   codec's layout, checked by PrecinctGame
#   PS_UNKNOWN_KINDS 10, PS_UPGRADE_KINDS 4, PS_DECKS 4, PS_HOODS 6   content.py's fixed tuples
#   PS_MAX_GANGS 16                 content.py allows len(GANGS) * 4 markers
#   PS_MAX_KNOWN 32                 known cards on top / at the bottom of one stack: at most the
#                                   stack's size (shipped decks hold 8..14; measured max 12)
#   PS_MAX_EVENT_TOP 4              the rules keep at most 1 (a peek inserts only on an empty top)
#   PS_MAX_EVENT_BOTTOM 64          at most the event cards (39 shipped); measured max 6
#   PS_MAX_CARDS 64                 ctx cards: one draw from one stack (a uint64 bitmask)
#   PS_MAX_TODO 128                 the queue; measured max 67 (8 players, 7 cards dealt: set-up pushes
#                                   56 deals before 6 punks, 2 stacks, the emergencies and
#                                   first_turn: at most 56 + 6 + 2 + 6 + 1 = 71); in play at most 39
#                                   (a turn's tail, 8 help and 8 sabotage windows, the roll steps)
# ---------------------------------------------------------------------------------------------------

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t

cdef enum:
    PS_MAX_SEATS = 8
    PS_MAX_COPS = 8
    PS_MAX_SUPPORT = 2
    PS_MAX_HAND = 32
    PS_MAX_UPGRADES = 4
    PS_MAX_SLOTS = 16
    PS_MAX_POLICE_KINDS = 32
    PS_MAX_EVENT_KINDS = 64
    PS_UNKNOWN_KINDS = 10
    PS_UPGRADE_KINDS = 4
    PS_DECKS = 4
    PS_HOODS = 6
    PS_MAX_GANGS = 16
    PS_MAX_KNOWN = 32
    PS_MAX_EVENT_TOP = 4
    PS_MAX_EVENT_BOTTOM = 64
    PS_MAX_CARDS = 64
    PS_MAX_TODO = 128
    PS_MAX_DONORS = 8
    PS_TASK_ARGS = 4

# Task kinds. Ranges: cop decisions [T_CAR, T_VAN], seat decisions [T_PICK, T_LOYALTY], chances
# [T_DEAL_LOYALTY, T_UNKNOWN], bookkeeping [T_SETUP_DEAL, T_ACCUSED]. 0 is no task.
cdef enum TaskKind:
    T_NONE = 0
    T_CAR = 1
    T_START
    T_MOVE
    T_SUPPORT
    T_DISCARD
    T_ACTION
    T_CLAIM
    T_OFFICERS
    T_SWAT
    T_DONUTS
    T_HELP
    T_FED
    T_SECOND
    T_REWARD
    T_DECK
    T_ORDER
    T_UPGRADE
    T_DONATE
    T_HOOD
    T_DISPATCH
    T_TOW
    T_TARGET
    T_EVENT_LOOK
    T_VAN               # 24
    T_PICK              # 25: seat decisions
    T_SABOTAGE
    T_LOYALTY
    T_DEAL_LOYALTY      # 28: chances
    T_SETUP_PUNK
    T_STACK_BLOCK
    T_DEAL_POLICE
    T_SETUP_EMERGENCY
    T_EVENT_DRAW
    T_PEEK_EVENT
    T_PLACE_ROLL
    T_PUNK_ROLL
    T_SPECIAL_ROLL
    T_GANG
    T_GAS
    T_DRIVE
    T_INV_DRAW
    T_LOOK
    T_ARREST_ROLL
    T_EM_ROLL
    T_UNKNOWN           # 45
    T_SETUP_DEAL        # 46: bookkeeping
    T_FIRST_TURN
    T_TURN_START
    T_AFTER_MOVE
    T_POLICE_PHASE
    T_HAND_LIMIT
    T_END_TURN
    T_EVENT_PHASE
    T_RESOLVE
    T_GAS_FIXED
    T_ESCAPE
    T_INV_DONE
    T_TAKE_REWARD
    T_ACCUSED           # 59
    T_COUNT             # 60

cdef enum:
    T_FIRST_SEAT_DECISION = T_PICK
    T_FIRST_CHANCE = T_DEAL_LOYALTY
    T_FIRST_AUTO = T_SETUP_DEAL

# String args of tasks, as codes (the .pyx tables hold the names, index = code).
cdef enum DiscardReason:        # discard(cop, reason)
    DR_LIMIT = 0
    DR_HOSPITAL = 1
    DR_GAS = 2

cdef enum LookWhy:              # deck / look / order (.., why)
    LW_LOOK2 = 0                # an emergency's reward: 2 cards, one on top, one at the bottom
    LW_INSIDER = 1              # Insider Knowledge: 2 cards, no reordering
    LW_FRESH = 2                # Fresh Perspective: 3 cards, reorder or shuffle

cdef enum HoodWhy:              # hood(cop, why)
    HW_OUTREACH = 0
    HW_INCITE = 1
    HW_OFFICER = 2

cdef enum RolledLocation:       # place_roll(kind, where, setup): content.ROLLED_LOCATIONS order
    RL_APARTMENT = 0
    RL_WAREHOUSE = 1
    RL_HOOD = 2

cdef enum SpecialRoll:          # special_roll(kind, what)
    SR_RIOT = 0
    SR_DOWN = 1
    SR_THEFT = 2

# ctx kinds (ctx["kind"]); CTX_NONE is the empty dict.
cdef enum CtxKind:
    CTX_NONE = 0
    CTX_INVESTIGATE = 1
    CTX_ARREST = 2
    CTX_ESCAPEES = 3
    CTX_EMERGENCY = 4
    CTX_OFFICER_DOWN = 5
    CTX_ACCUSE = 6


cdef struct PTask:
    uint8_t kind                    # TaskKind
    uint8_t nargs                   # how many of args are used (the tuple's length - 1)
    int16_t args[PS_TASK_ARGS]      # ints, string codes, or a packed rewards tuple (see above)


cdef struct PCtx:
    uint8_t kind                    # CtxKind
    int8_t cop
    # investigate
    int8_t deck
    uint8_t has_draw                # size, evidence_before and cards present (set by inv_draw)
    int16_t size
    int16_t evidence_before
    uint8_t n_cards
    uint64_t cards                  # bit i: the i-th card drawn is evidence
    uint8_t has_hide
    uint8_t hide
    # investigate, arrest, escapees, emergency, officer_down
    int16_t n
    int16_t sym
    uint8_t has_sabotage
    int16_t sabotage
    # arrest
    int8_t hood                     # 1..6
    uint8_t murderer
    uint8_t lookouts
    # escapees, emergency, officer_down
    int8_t slot
    # accuse
    int8_t target
    uint8_t n_donors
    int8_t donor_cop[PS_MAX_DONORS]
    int16_t donor_k[PS_MAX_DONORS]


cdef struct PCop:
    int8_t seat
    int8_t chr                      # Cop.char (a character index; "char" is a C keyword)
    int8_t street
    uint8_t marked
    int16_t donuts
    int16_t swat
    int16_t fed
    int16_t arrests
    int16_t extra_move
    int16_t empty
    uint8_t out
    uint8_t hospital
    uint8_t skip_event
    uint8_t switched
    uint8_t no_draw
    uint8_t rewarded
    uint8_t n_hand
    uint8_t n_upgrades
    uint8_t hand[PS_MAX_HAND]       # police kinds, in the order received
    uint8_t fresh[PS_MAX_HAND]      # 1: acquired this turn
    uint8_t upgrades[PS_MAX_UPGRADES]


cdef struct PSlot:
    uint8_t full                    # 0: the slot is empty (None); the other fields are then 0
    int8_t card
    int8_t at
    int8_t where
    int8_t building                 # index into game.city.buildings' order; -1 for ""
    int8_t unknown                  # -1 none, -2 face down, else the revealed marker kind
    int16_t serial
    int16_t data


cdef struct PStack:
    int8_t building                 # -1 for "" (not placed yet)
    uint8_t gone
    int16_t evidence
    int16_t useless
    uint8_t n_top
    uint8_t n_bottom
    uint8_t top_kind[PS_MAX_KNOWN]      # 1 evidence, 0 useless; top first
    uint8_t top_know[PS_MAX_KNOWN]      # knower seats, bit s = seat s
    uint8_t bottom_kind[PS_MAX_KNOWN]   # bottom-most last
    uint8_t bottom_know[PS_MAX_KNOWN]


cdef struct PEventKnown:
    uint8_t kind                    # event kind
    uint8_t know                    # knower seats, bit s = seat s


cdef struct PState:
    # sizes the content fixes (stored so a state converts back without the game)
    uint8_t n_police_kinds
    uint8_t n_event_kinds
    int8_t n                        # players
    int8_t n_cops
    int8_t n_order
    int8_t at
    int8_t n_support
    int8_t dealt
    int8_t result
    int8_t urgent
    int8_t murderer
    uint8_t loyalty                 # bit s: seat s is dirty
    uint8_t revealed
    uint8_t underground
    uint8_t n_gang_pool
    uint8_t n_event_top
    uint8_t n_event_bottom
    int8_t order[PS_MAX_COPS]
    int8_t support[PS_MAX_SUPPORT]
    uint8_t peeks[PS_MAX_SEATS]     # bit p of peeks[s]: seat s saw seat p's loyalty card
    int8_t punks[PS_HOODS]
    int8_t gangs[PS_HOODS]
    int8_t patrol[PS_HOODS]
    int8_t gang_pool[PS_MAX_GANGS]
    int16_t punk_supply
    int16_t patrol_stock
    int16_t serial
    int16_t unknown_unseen
    int16_t donut_supply
    int16_t turn_track
    int16_t crime
    int32_t turns
    int16_t placed[PS_DECKS]
    int16_t upgrades_left[PS_UPGRADE_KINDS]
    int16_t unknown[PS_UNKNOWN_KINDS]
    int16_t unknown_discard[PS_UNKNOWN_KINDS]
    int16_t police[PS_MAX_POLICE_KINDS]
    int16_t police_discard[PS_MAX_POLICE_KINDS]
    int16_t events_left[PS_MAX_EVENT_KINDS]
    int16_t event_discard[PS_MAX_EVENT_KINDS]
    PEventKnown event_top[PS_MAX_EVENT_TOP]         # top first
    PEventKnown event_bottom[PS_MAX_EVENT_BOTTOM]   # bottom-most last
    PSlot slots[PS_MAX_SLOTS]
    PStack stacks[PS_DECKS]
    PCop cops[PS_MAX_COPS]
    PCtx ctx
    # The queue is kept REVERSED, as a stack: todo[todo_len - 1] is the head (Python's todo[0]) and
    # todo[0] the tail. Popping the head and pushing in front (tasks.push) are then O(1) per task;
    # push(st, a, b, c) puts c, then b, then a; st.todo.append (end_turn, set-up) shifts the array.
    int16_t todo_len
    PTask todo[PS_MAX_TODO]


# The queue's four operations, for the ported rules. They return 0, or -1 when the bound is
# exceeded (the caller reports it; nothing is written then).
cdef inline PTask* ps_head(PState* s) noexcept nogil:
    return &s.todo[s.todo_len - 1] if s.todo_len > 0 else NULL


cdef inline void ps_pop(PState* s) noexcept nogil:
    if s.todo_len > 0:
        s.todo_len -= 1


cdef inline int ps_push_front(PState* s, PTask t) noexcept nogil:
    if s.todo_len >= PS_MAX_TODO:
        return -1
    s.todo[s.todo_len] = t
    s.todo_len += 1
    return 0


cdef inline int ps_push_back(PState* s, PTask t) noexcept nogil:
    cdef int i
    if s.todo_len >= PS_MAX_TODO:
        return -1
    i = s.todo_len
    while i > 0:
        s.todo[i] = s.todo[i - 1]
        i -= 1
    s.todo[0] = t
    s.todo_len += 1
    return 0


cdef class PrecinctCState:
    cdef PState s
    cdef object game                # the PrecinctGame (names for to_core; never read by the rules)
    cdef tuple building_names       # game.city.buildings in order: index -> name
