# The Police Precinct rules as nogil C functions over PState / PContent / CityC, for the compiled
# simulator of issue 22: the task machinery of solver/games/precinct/tasks.py (actor, legal, outcomes,
# apply, run), the handlers of common.py and turn.py from the first turn on, the task kinds of
# procedures.py and those of eventcards.py (the event phase, placements, punks and gangs, the Urgent!
# token, every special); the compiled playout (precinct_playout) runs on it.
# tests/test_precinct_kernel_rules.py holds it equal to the Python rules step by step on seeded games,
# and plays whole games to their end from mid-game states in C and in Python with the same actions,
# final state and result.
#
# Kernels use it as
#   from solver._ext.precinct_rules cimport PRules, pr_legal, pr_outcomes, pr_apply, ...
# with a PRules holding pointers to a PState (precinct_state.pxd), the game's PContent
# (precinct_content.pxd) and its CityC (precinct_city.pxd); the caller keeps their owners alive.
#
# ---------------------------------------------------------------------------------------------------
# PORTED task kinds (pr_ported): every kind of play. Decisions start, move, support, discard; chance
# deal_police; bookkeeping first_turn, turn_start, after_move, police_phase, hand_limit, end_turn
# (turn.py, common.py); from procedures.py: decisions action, claim, officers, swat, donuts, help, fed,
# second, reward, deck, order, upgrade, donate, hood, dispatch, tow, target, sabotage (seat), loyalty
# (seat); chances inv_draw, look, arrest_roll, em_roll, unknown; bookkeeping inv_done, take_reward,
# accused; from eventcards.py: decisions van, event_look; chances event_draw, peek_event, place_roll,
# punk_roll, special_roll, gang, gas, drive; bookkeeping event_phase, resolve, gas_fixed, escape. Their
# decisions check the action against the options (PR_BAD otherwise), their chances the action's range;
# Notes and st.events records are text only and not kept.
# SET-UP kinds (pr_setup_kind: car, pick, deal_loyalty, setup_deal, setup_punk, stack_block,
# setup_emergency) answer PR_SETUP: searches start mid-game, after the set-up. PR_NOT_PORTED is left
# for a kind added to the Python rules and not yet here.
#
# STATUSES: PR_OK 0; PR_STOPPED 1 (pr_run / pr_apply: the run stopped in front of a task whose kind is
# not ported (after the set-up: never), untouched at the head: the state is exactly Python's at the
# moment its run would have handled that task); below 0 an error. On PR_NOT_PORTED / PR_SETUP from
# pr_legal, pr_outcomes or pr_apply nothing was changed. On PR_BOUND (an array would grow past its
# precinct_state.pxd bound) or PR_BAD (a state the rules never make, or an action that is not legal)
# the state may be half changed and must be dropped. r.err_kind names the task kind concerned.
# ---------------------------------------------------------------------------------------------------

from solver._ext.precinct_state cimport PState, PTask
from solver._ext.precinct_content cimport PContent
from solver._ext.precinct_city cimport CityC
from solver._ext.rng cimport SplitMix
from libc.stdint cimport uint64_t

cdef enum:
    PR_OK = 0
    PR_STOPPED = 1
    PR_NOT_PORTED = -1
    PR_SETUP = -2
    PR_BOUND = -3
    PR_BAD = -4
    PR_TERMINAL = -5            # no task (the game is over)

    # Buffer sizes of pr_legal / pr_outcomes. The ported kinds stay below them (a move or a support
    # move: at most 64 streets; start: 2 + 32 cards; a deal: 32 police kinds; action: 2 + 32 cards + 4
    # decks + 2 + 16 slots + 4 upgrades + 1 + 8 seats = 69; help: 1 + 2 * 32; inv_draw at most 32
    # (checked), arrest_roll 40, look 8; an event draw or peek: at most PS_MAX_EVENT_KINDS = 64 kinds;
    # a gang draw: at most PS_MAX_GANGS = 16 markers).
    PR_MAX_ACTIONS = 128        # legal actions of one decision
    PR_MAX_OUTCOMES = 64        # outcomes of one chance node

    PR_CHANCE = -1              # solver.core.CHANCE
    PR_TERMINAL_SEAT = -4       # solver.core.TERMINAL


cdef struct PRules:
    PState* s
    const PContent* c
    const CityC* city
    int err_kind                # the task kind a non-OK status is about


# --- the machinery (tasks.py) ---------------------------------------------------------------------
cdef bint pr_ported(int kind) noexcept nogil
cdef bint pr_setup_kind(int kind) noexcept nogil
# tasks.actor of the head: a seat, PR_CHANCE, or PR_TERMINAL_SEAT when the game is over / no task
cdef int pr_actor(PRules* r) noexcept nogil
# tasks.legal: the head's actions sorted and distinct into ``out`` (PR_MAX_ACTIONS); count or status
cdef int pr_legal(PRules* r, int* out) noexcept nogil
# tasks.outcomes: the head's chance outcomes with p > 0 in Python's order; count or status
cdef int pr_outcomes(PRules* r, int* actions, double* probs) noexcept nogil
# tasks.apply: pop the head, apply ``action``, run; PR_OK, PR_STOPPED or an error
cdef int pr_apply(PRules* r, int action) noexcept nogil
# tasks.run: bookkeeping and empty decisions/chances up to the next decision or chance node
cdef int pr_run(PRules* r) noexcept nogil
# the game to its end with a seeded SplitMix choosing (decision: legal[below(n)]; chance: the first
# outcome whose running sum of probabilities passes uniform()); the actions into ``actions``
cdef int pr_random_playout(PRules* r, SplitMix* rng, int max_steps, int* actions,
                           int* n_out) noexcept nogil

# --- helpers the rules share (common.py, state.py and the hooks), for the next porters ------------
cdef PTask pr_task(int kind, int nargs, int a0, int a1, int a2, int a3) noexcept nogil
cdef int pr_push(PRules* r, PTask t) noexcept nogil               # tasks.push of one task
cdef void pr_end(PRules* r, bint good_win) noexcept nogil         # st.end
cdef void pr_advance_crime(PRules* r) noexcept nogil              # st.advance_crime
cdef uint64_t pr_blocked(const PRules* r) noexcept nogil          # st.blocked() as a mask
cdef bint pr_covered(const PRules* r, int deck) noexcept nogil    # st.covered(deck)
cdef bint pr_has(const PRules* r, int cop, int power) noexcept nogil
cdef int pr_murderer_hood(const PRules* r) noexcept nogil
cdef bint pr_station_overrun(const PRules* r) noexcept nogil
cdef int pr_police_left(const PRules* r) noexcept nogil
cdef uint64_t pr_playable(const PRules* r, int cop, bint own_turn) noexcept nogil  # kinds as bits
cdef int pr_give_card(PRules* r, int cop, int kind, bint fresh) noexcept nogil
cdef int pr_take_card(PRules* r, int cop, int kind) noexcept nogil
cdef int pr_draw_police(PRules* r, int cop, bint fresh) noexcept nogil
cdef void pr_gain_donut(PRules* r, int cop, int n) noexcept nogil
cdef void pr_spend_donuts(PRules* r, int cop, int n) noexcept nogil
cdef int pr_hospital(PRules* r, int cop) noexcept nogil
cdef int pr_add_punks(PRules* r, const int* hoods, int n) noexcept nogil  # 1 placed, 0 not, < 0 error
cdef int pr_discard_slot(PRules* r, int e, bint handled) noexcept nogil
cdef int pr_pay_rewards(PRules* r, int cop, int kind) noexcept nogil
cdef int pr_text_plays(const PRules* r, int cop, bint start, int* out) noexcept nogil  # kinds, count
cdef int pr_play_text(PRules* r, int cop, int kind) noexcept nogil
