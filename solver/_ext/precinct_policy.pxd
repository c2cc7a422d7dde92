# The Police Precinct playout policy as nogil C over PState / PContent / CityC, for the compiled
# simulator of issue 22: the scores of the ``heuristic`` bot (bots/precinct/heuristic.py: Reader,
# _move, _action, best_at, handle_value, ...) and the choice of bots/precinct/search.py's
# heuristic_action, read off the same facts as view.policy_data gives the seat to act (its own loyalty
# card; every other fact read here is public). The engine never imports bots/: the formulas are
# copied here, and tests/test_precinct_kernel_policy.py holds the two equal on seeded games.
#
# PORTED: every decision of heuristic.score, read off the legal actions' blocks in Python's order (pick,
# move, support, no-action, place, a roll's help window, donuts, sabotage, loyalty, the rest): _pick,
# _move with best_at / best_near and the stolen car, the support vehicle, the PHASE 2 action decision
# (_action with investigate / arrest / murderer / handle / upgrade / play-text / reveal / accuse), _claim
# (the dirty cop's hide rule with heuristic.HIDE_THRESHOLD, the threshold
# search.heuristic_action plays with), _help / _donuts / _sabotage (with _roll_context,
# computed once per decision), _loyalty and everything _other covers (car side, start-of-turn texts,
# rewards, discards, stacks to look at, the looked-at cards' order, hoods, upgrades, donations,
# officers, SWAT, Internal Affairs' target, tow, escort van, the top event card). Where Python reads the
# prompt's words ("tows", "van") the task kind is read instead (T_TOW, T_VAN). A seat decision (pick,
# sabotage, loyalty) acts with Reader.acting_cop's fallback (the turn's cop when it is the seat's, else
# the seat's first cop); none of its rules reads the cop.
#
# Kernels use it as
#   from solver._ext.precinct_policy cimport PPolicy, pp_init, pp_scores, pp_choose
# pp_init reads the decision's task (the head of the queue) and builds the per-decision tables
# (cars per street, the blocked intersections, the streets each board card is handled from); every
# rule then reads them. A PPolicy lives for one decision (it points at the state).
#
# FLOATING POINT: every formula is Python's in the same order of operations (a + b * c as written,
# ints converted to double where Python mixes int and float, pow() for **), so the scores are equal
# bit for bit, not only within the 1e-9 tie tolerance.
#
# ACCUSATIONS: board data without a history never accuses (Reader.accuse_at is None): ACCUSE scores
# -5.0, as it does in a playout.

from libc.stdint cimport uint64_t

from solver._ext.precinct_state cimport PState, PS_MAX_COPS, PS_MAX_SLOTS
from solver._ext.precinct_content cimport PContent
from solver._ext.precinct_city cimport CityC, CITY_MAX
from solver._ext.rng cimport SplitMix

cdef enum:
    PP_OK = 0
    PP_NOT_PORTED = -1          # the head task is a decision whose scores are not ported
    PP_BAD = -2                 # no decision at the head, or an action outside its decision

cdef enum:                      # _roll_context's kinds
    PR_NONE = 0                 # no roll, an accusation: (1.0, 1.0, 0.0)
    PR_ARREST
    PR_MURDERER                 # an arrest in the murderer's hood with the board complete
    PR_ESCAPEES
    PR_EMERGENCY
    PR_OFFICER_DOWN
    PR_INVESTIGATE



cdef struct PPolicy:
    const PState* s
    const PContent* c
    const CityC* city
    int kind                    # the head task's kind (T_MOVE, T_ACTION, ...)
    int seat                    # the seat to act
    int cop                     # the acting cop (the task's; Reader.acting_cop for a seat decision)
    bint dirty                  # my_loyalty == "dirty"
    bint revealed               # dirty and shown to all
    bint complete               # every deck's evidence placed
    int evidence_left
    int murderer                # murderer_hood: 1..6, 0 before he appears
    uint64_t blocked            # intersections a board card lies on
    int cars[CITY_MAX]          # police cars per street (cops on the board, support vehicles)
    int on[PS_MAX_COPS]         # each cop's street, -1 once out
    uint64_t card_streets[PS_MAX_SLOTS]   # the streets each board card is handled from
    int stack_street[4]         # the street of each deck's stack when no card covers it, else -1
    uint64_t best_done          # streets whose best[] is computed
    double best[CITY_MAX]       # Reader.best_at per street, for ``cop``
    bint roll_done              # _roll_context for the roll under way (ctx), computed once
    int roll_what               # PR_* (the context's kind)
    double roll_p               # the chance of success now
    double roll_p1              # ... with one more die
    double roll_worth           # the roll's worth


# Fill ``p`` for the decision at the head of ``s``'s queue; PP_OK or PP_BAD.
cdef int pp_init(PPolicy* p, const PState* s, const PContent* c, const CityC* city) noexcept nogil

# The rules' values (Reader's methods) for p.cop, with extra = 0 (the only value the heuristic uses)
cdef double pp_cars_on(const PPolicy* p, int street, int exclude) noexcept nogil
cdef double pp_handle_value(PPolicy* p, int e) noexcept nogil
cdef double pp_arrest_value(PPolicy* p, int street) noexcept nogil
cdef double pp_murderer_value(PPolicy* p, int street) noexcept nogil
cdef double pp_investigate_value(PPolicy* p, int street, int deck) noexcept nogil
cdef double pp_best_at(PPolicy* p, int street) noexcept nogil      # remembered per street
cdef double pp_best_near(PPolicy* p, int street, int steps) noexcept nogil

# score(...) of the head decision: one score per legal action into ``out``; PP_OK or a status
cdef int pp_scores(PPolicy* p, const int* legal, int n, double* out) noexcept nogil
# heuristic_action: the top score, ties within 1e-9 broken by one draw of ``rng`` (no draw when one
# action is legal or one is on top); the chosen action, or a status below 0
cdef int pp_choose(PPolicy* p, const int* legal, int n, SplitMix* rng) noexcept nogil
