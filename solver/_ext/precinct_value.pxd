# The learnt Police Precinct value (solver/search/precinct_value.py) as nogil C over PState / PContent
# / CityC, for the compiled search of issue 22: pv_features is _raw (the 49 features of NAMES, in
# order) and pv_value is ValueModel.value (sigmoid of the linear model, 1.0 / 0.0 once the game is
# over). tests/test_precinct_kernel_value.py holds them equal to Python on seeded games.
#
# FLOATING POINT: every feature is Python's formula in the same order of operations (ints divided as
# doubles where Python's true division does, a / b / c left to right), and the logit sums the weights
# in NAMES order from the bias, so the features and the value are equal bit for bit.
#
# THE GAP: the feature "dirty_exposed" counts underground seats that did NOT reveal themselves (were
# exposed by an accusation). Python reads that from the action records (_self_revealed: the seats of
# every "reveal" action); PState omits the records and holds no exact equivalent (both ways leave
# revealed and underground set, the cop out, and both get loyalty turns; the donuts differ at first
# but change later). So the caller passes ``self_revealed`` (bit s: seat s revealed itself): from
# Python, precinct_value._self_revealed(st); in a C playout it needs a PState field, e.g.
# ``uint8_t self_revealed`` set by the rules' reveal() (procedures.reveal: bit c.seat) and filled by
# PrecinctCState.from_state from _self_revealed(st).
#
# Kernels use it as
#   from solver._ext.precinct_value cimport PValueConsts, PV_FEATURES, pv_features, pv_value
# with the PValueConsts of a PrecinctCValue (built once per game and model).

from solver._ext.precinct_state cimport PState, PS_MAX_EVENT_KINDS, PS_DECKS, PS_HOODS
from solver._ext.precinct_content cimport PContent, PrecinctCContent
from solver._ext.precinct_city cimport CityC, CCity, CITY_MAX

cdef enum:
    PV_FEATURES = 49            # len(precinct_value.NAMES)


# precinct_value._Consts of one game, and one model's weights.
cdef struct PValueConsts:
    int n_decks                 # len(need)
    int need[PS_DECKS]          # evidence each deck needs
    int total_need              # max(1, sum(need))
    int fail_turn
    int crime_fail
    int punks                   # max(1, game.punks)
    int officers                # max(1, game.patrol_officers)
    int events                  # max(1, event cards in the deck)
    bint dirty                  # game.dirty_cops > 0
    int n_event_kinds
    int special[PS_MAX_EVENT_KINDS]     # 1: the kind is a special
    int colour[PS_MAX_EVENT_KINDS]      # its colour's index (-1 for a special, 0 for another colour)
    int n_buildings
    int building_street[CITY_MAX]       # building index (city.buildings' order) -> its street
    int hood_dist[PS_HOODS][CITY_MAX]   # [hood - 1][street]: fewest moves to that hood
    # the model
    int n_weights               # a base-only model reads a prefix of the features
    double weights[PV_FEATURES]
    double bias


# _raw(st) into out[0..PV_FEATURES-1]; ``self_revealed``: bit s when seat s revealed itself (see THE GAP)
cdef void pv_features(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                      unsigned int self_revealed, double* out) noexcept nogil
# ValueModel.logit(st): the bias plus the weighted features, summed in NAMES order
cdef double pv_logit(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                     unsigned int self_revealed) noexcept nogil
# ValueModel.value(st): 1.0 / 0.0 once the game is over, else the sigmoid of the logit
cdef double pv_value(const PState* s, const PContent* c, const CityC* city, const PValueConsts* k,
                     unsigned int self_revealed) noexcept nogil


cdef class PrecinctCValue:
    cdef PValueConsts k
    cdef PrecinctCContent content   # owns the PContent
    cdef CCity city                 # owns the CityC
    cdef readonly object game
    cdef readonly object model
