# The compiled Good Cop Bad Cop rules (ext/gcbc_sim.pyx), twin of solver/games/gcbc (rules.py, flow.py,
# actions.py, effects.py, plays.py, deal.py): the same legal actions in the same order, the same chance
# outcomes with the same probabilities, the same returns, at every step of every game. The state is one
# flat struct (GState), so a copy is one assignment; the game's constants (GConsts) are shared by pointer.
#
# Beyond the Python state the struct keeps what a search and its playout policy need and the Python
# rules leave to the views: each seat's knowledge of every Integrity card (know), the aims and shots
# chosen so far (aimed, shot), and each seat's running information-set key (key). All three are
# functions of what the seat observed (see ext/gcbc_sim.pyx).

from libc.stdint cimport uint64_t, uint32_t, int8_t
from solver._ext.rng cimport SplitMix
from solver._ext.simbase cimport Sim

cdef enum:
    G_MAX_PLAYERS = 8
    G_CARDS = 3            # Integrity cards per player
    G_MAX_EQUIP = 32       # Equipment cards in a content file (codec.MAX_CARDS)
    G_MAX_HAND = 4
    G_MAX_STACK = 96       # to-do stack entries
    G_TASK = 5             # ints per entry: (op, a, b, c, d); unused trailing ints are 0
    G_MAX_CAMERA = 24
    G_MAX_EXTRA = 16
    G_MAX_LEGAL = 512      # room for a legal-action buffer (simbase's SIM_MAX_ACTIONS)
    G_ALL_SEATS = 0xFFFF   # bottom_known: everyone knows the card (Python's None)

# Effect and Timing indices: positions in the Effect and Timing enums of solver/games/gcbc/equipment.py
cdef enum:
    EF_SWAP_OWN = 0
    EF_SWAP_OTHERS = 1
    EF_NEXT_TURN = 2
    EF_EXTRA_TURN = 3
    EF_REVIVE = 4
    EF_TAKE_EQUIPMENT = 5
    EF_REARRANGE = 6
    EF_SEE_EQUIPMENT = 7
    EF_DISARM = 8
    EF_INVESTIGATE_ARMED = 9
    EF_RE_AIM = 10
    EF_INVERT = 11
    EF_POLYGRAPH = 12
    EF_AUDIT = 13
    EF_REDIRECT_SHOT = 14
    EF_REVERSE = 15
    EF_EXPOSE_INVESTIGATED = 16
    EF_TAKE_GUN = 17
    EF_REVEAL_ONE = 18
    EF_INVESTIGATE_TWO_CARDS = 19
    EF_INVESTIGATE_TWO_PLAYERS = 20
    TM_ANY = 0
    TM_OWN_TURN = 1
    TM_OWN_ACTION = 2
    TM_SHOT_ANNOUNCED = 3
    TM_AFTER_INVESTIGATION = 4

# winner codes
cdef enum:
    GW_NONE = 0
    GW_HONEST = 1
    GW_CROOKED = 2
    GW_SOLO = 3


cdef struct GConsts:
    int n                      # players, 4..8
    int side_cards             # Honest cards in play (and as many Crooked)
    int guns
    int ncards                 # Equipment cards in the content
    int effect[G_MAX_EQUIP]    # EF_* of each card
    int timing[G_MAX_EQUIP]    # TM_* of each card


cdef struct GState:
    const GConsts* c
    int n
    # Integrity cards: 0 agent, 1 kingpin, 2 honest, 3 crooked (deal.Integrity)
    int8_t cards[G_MAX_PLAYERS][G_CARDS]
    int ncards[G_MAX_PLAYERS]              # 0 before the deal, 3, or 1 after a Defibrillator
    bint face_up[G_MAX_PLAYERS][G_CARDS]
    bint alive[G_MAX_PLAYERS]
    bint wounded[G_MAX_PLAYERS]
    bint inverted[G_MAX_PLAYERS]
    bint gun[G_MAX_PLAYERS]
    int aim[G_MAX_PLAYERS]                 # -1: none
    int guns_centre
    int honest_left
    int crooked_left
    int hands[G_MAX_PLAYERS][G_MAX_HAND]   # Equipment card numbers, in Python's list order
    int nhand[G_MAX_PLAYERS]
    uint32_t unseen                        # bit c: card c never drawn (Python's unseen, kept sorted)
    int bottom[G_MAX_EQUIP]                # returned cards, the next to draw first
    uint32_t bottom_known[G_MAX_EQUIP]     # seats that know each (G_ALL_SEATS: everyone)
    int nbottom
    int turn
    int active
    int base
    int direction
    int extra_turns[G_MAX_EXTRA]
    int nextra
    int next_turn
    int announced                          # an action id, -1 none
    bint forced_shoot
    int camera[G_MAX_CAMERA][2]            # (seat, pos) just investigated
    int ncamera
    int winner                             # GW_*
    uint32_t winners                       # bit s: seat s won
    int stack[G_MAX_STACK][G_TASK]         # the to-do stack of ops.py, top = stack[nstack - 1]
    int nstack
    # --- what the Python state leaves to the views --------------------------------------------------
    int8_t know[G_MAX_PLAYERS][G_MAX_PLAYERS][G_CARDS]   # [viewer][seat][pos]: the card, -1 unknown
    uint32_t aimed[G_MAX_PLAYERS]          # bit t: the seat chose to point its own Gun at t (AIM, own REAIM)
    uint32_t shot[G_MAX_PLAYERS]           # bit t: the seat shot t
    uint64_t key[G_MAX_PLAYERS]            # running hash of each seat's observations


# --- the rules on a GState (nogil C; the Python-visible class wraps them) -----------------------------
cdef void gs_init(GState* st, const GConsts* c) noexcept nogil          # the state before the deal
cdef int gs_current_player(const GState* st) noexcept nogil             # seat, SIM_CHANCE or SIM_TERMINAL
cdef int gs_legal(const GState* st, int* out) noexcept nogil            # sorted legal actions (chance: outcomes)
cdef int gs_chance(const GState* st, int* out, double* prob) noexcept nogil   # chance outcomes, Python's order
cdef int gs_sample_chance(const GState* st, SplitMix* rng) noexcept nogil     # a chance outcome by its probability
cdef void gs_apply(GState* st, int action) noexcept nogil               # apply (unchecked), then run to a decision
cdef double gs_return(const GState* st, int seat) noexcept nogil        # +1 winner, -1 loser, 0 while playing
cdef bint gs_team_crooked(const GState* st, int seat) noexcept nogil    # deal.team_of(...) == "crooked"


cdef class GCBCTables:
    cdef GConsts consts


cdef class GCBCRulesSim(Sim):
    cdef GState st
    cdef GCBCTables tables
