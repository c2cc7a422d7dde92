# The compiled Police 07 simulator (ext/p07sim.pyx), twin of solver/games/police07/sim.py, whose
# module docstring defines the transitions, rewards, keys and playout policy; both make the same
# SplitMix64 draws. A search kernel drives it through the Sim methods of solver/_ext/simbase.pxd.

from libc.stdint cimport uint64_t, int32_t
from solver._ext.rng cimport SplitMix
from solver._ext.simbase cimport Sim, CDeterminizer

cdef enum:
    P07_MAX_PIECES = 6      # Dr. Factor and up to five detective pieces
    P07_KINDS = 5           # tickets per piece: taxi, bus, metro, joker, double


# Everything a simulator reads and never writes (built once per SimTables, shared by pointer).
cdef struct P07Consts:
    const uint64_t* nbr     # neighbour masks, p07bits.pxd layout: ((line * 256) + s) * 4 + w
    const int32_t* dist     # detective distances, row-major: dist[a * width + b]
    int width               # num_stops + 1
    int num_pieces
    int num_players
    int piece_seat[P07_MAX_PIECES]
    bint voluntary_show
    uint64_t revealed       # bit m set: Dr. Factor's move m is shown
    int last_move
    double epsilon           # the detectives' playout epsilon
    double epsilon_factor    # Dr. Factor's
    double coalition_r
    bint chase_belief
    bint filter_moves
    bint joker_same_stop     # the playout joker rule: joker_filter == "same_stop"
    bint filter_tree         # Dr. Factor's legal actions are NW-filtered
    bint factor_keys_stop    # factor_keys == "stop": his key is (public key, his stop)
    int max_depth
    bint track_possible


# One game in flight: a plain struct, so a copy is one assignment.
cdef struct P07Core:
    int pos[P07_MAX_PIECES]
    int tk[P07_MAX_PIECES * P07_KINDS]   # piece * 5 + kind; -1 unlimited
    uint64_t occ[4]                      # detective stops
    uint64_t poss[4]                     # the public possible-location set
    uint64_t key_factor
    uint64_t key_public
    int phase
    int piece
    int double_steps
    int turn_moves
    int moves
    int take_mask                        # pieces still to be robbed after a show (bit p)
    int visible_at
    int winner
    int capturer
    bint shown_this_turn


cdef class P07Tables:
    cdef object source                   # the SimTables (keeps the arrays alive)
    cdef const uint64_t[::1] nbr_view
    cdef const int32_t[::1] dist_view
    cdef P07Consts c


cdef class P07Sim(Sim):
    cdef P07Tables T
    cdef const P07Consts* C
    cdef P07Core s
    cdef int c_current_player(self) noexcept
    cdef int c_legal(self, int* out) noexcept
    cdef void c_apply(self, int action) noexcept
    cdef bint c_terminal(self) noexcept
    cdef double c_return(self, int seat) noexcept
    cdef uint64_t c_key(self, int seat) noexcept
    cdef int c_default_action(self, SplitMix* rng) noexcept
    cdef void c_copy_from(self, Sim other) noexcept
    cdef Sim c_new(self)


cdef class P07Determinizer(CDeterminizer):
    cdef P07Sim base
    cdef int n_stops
    cdef int stops[256]
    cdef double weights[256]
    cdef bint weighted
    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept
    cdef int draw(self, SplitMix* rng) noexcept
    cdef Sim c_new_sim(self)
