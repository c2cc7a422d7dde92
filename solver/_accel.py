"""Choose between the compiled kernels in ``solver._ext`` and their pure-Python twins.

One switch, as in msgpack and SQLAlchemy: ``COPSOLVER_PUREPYTHON=1`` forces the twins. Without it the
compiled modules are used when the build made them; if it did not, the engine says so once (a
warning) and runs on the twins. ``copsolver --version`` prints which. :data:`TWINS` names each
kernel's twin and the tests that hold the two equal.
"""

from __future__ import annotations

import importlib
import os
import warnings
from dataclasses import dataclass
from types import ModuleType
from typing import Final

#: True when the user asked for the pure-Python twins.
PURE_REQUESTED: bool = os.environ.get("COPSOLVER_PUREPYTHON", "") not in ("", "0")



@dataclass(frozen=True)
class Twin:
    """A compiled kernel's pure-Python twin and the tests that hold them equal."""

    #: the modules whose results the kernel must reproduce exactly
    pure: tuple[str, ...]
    #: the equality tests, as pytest node ids (``tests/test_x.py::test_name``)
    tests: tuple[str, ...]


#: Per compiled module (``ext/<name>.pyx``): its pure twin and the tests comparing them. Change a
#: kernel and its twin together; tests/test_twins.py checks that every kernel is listed here.
TWINS: Final[dict[str, Twin]] = {
    # the Good Cop Bad Cop playout policy, search sim and world pool on the compiled rules: NOT an exact
    # twin. The policy is a measured approximation of bots/gcbc/heuristic.py (estimate=rules), reading
    # only what a seat's view holds (the engine never imports bots/, so the twins named are the view and
    # the rules it reads); the agreement test holds its choices among the heuristic's best
    "gcbc_search": Twin(
        ("solver.games.gcbc.view", "solver.games.gcbc.rules"),
        (
            "tests/test_gcbc_kernel_policy.py::test_choices_agree_with_the_python_heuristic",
            "tests/test_gcbc_kernel_policy.py::test_scores_equal_python_on_the_same_knowledge",
            "tests/test_gcbc_kernel_policy.py::test_no_leak_same_view_same_choice",
        ),
    ),
    # the Good Cop Bad Cop rules as one flat C struct (the search's simulator): the same player, legal
    # actions, chance outcomes and probabilities, state and returns at every step; plus each seat's
    # card knowledge, aims, shots and information-set key, held against the views
    "gcbc_sim": Twin(
        ("solver.games.gcbc.rules", "solver.games.gcbc.flow", "solver.games.gcbc.actions",
         "solver.games.gcbc.effects"),
        (
            "tests/test_gcbc_kernel_rules.py::test_lockstep_random_and_card_biased_games_equal_python",
            "tests/test_gcbc_kernel_rules.py::test_lockstep_heuristic_games_equal_python",
            "tests/test_gcbc_kernel_rules.py::test_knowledge_is_true_and_covers_the_views",
            "tests/test_gcbc_kernel_rules.py::test_keys_follow_the_views_across_resampled_worlds",
            "tests/test_gcbc_kernel_rules.py::test_user_content_file_plays_equal",
        ),
    ),
    # the ISMCTS loop: the same statistics and the same random draws as the reference search
    "ismcts": Twin(("solver.search.ismcts",), ("tests/test_ismcts.py::test_compiled_equals_pure",)),
    # Dr. Factor's location tracker (LocationTracker): the same sets on random games
    "p07belief": Twin(
        ("solver.games.police07.bitsets",), ("tests/test_bitsets.py::test_twins_agree_on_random_games",)
    ),
    # a Police 07 piece's legal moves from the flattened board
    "p07moves": Twin(
        ("solver.games.police07._moves",), ("tests/test_p07moves_twin.py::test_compiled_equals_pure",)
    ),
    # the Police 07 simulator and determinizer for search, playouts included
    "p07sim": Twin(
        ("solver.games.police07.sim",),
        (
            "tests/test_p07sim.py::test_compiled_playouts_equal_pure",
            "tests/test_p07sim.py::test_compiled_determinizer_equals_pure",
        ),
    ),
    # the Police Precinct city as flat C arrays (the same reach, moves, path, distances, hoods) and the
    # action ids of solver/_ext/precinct_codec.pxd
    "precinct_city": Twin(
        ("solver.games.precinct.city",),
        (
            "tests/test_precinct_kernel_city.py::test_compiled_equals_pure",
            "tests/test_precinct_kernel_city.py::test_codec_constants_equal_python",
        ),
    ),
    # the Police Precinct content and options as one C struct (cards, powers, places as ids)
    "precinct_content": Twin(
        ("solver.games.precinct.content", "solver.games.precinct.rules"),
        (
            "tests/test_precinct_kernel_content.py::test_shipped_content_equals_python",
            "tests/test_precinct_kernel_content.py::test_user_content_and_city_files",
        ),
    ),
    # the Police Precinct search's playout below the tree (PrecinctSim.rollout, the ismcts bot's): the
    # heuristic playout cut at its horizon, chance drawn as StateSim.default_action draws it, one nogil loop
    "precinct_playout": Twin(
        ("solver.games.precinct.tasks", "solver.search.sim"),
        ("tests/test_precinct_kernel_playout.py::test_playouts_equal_precinct_sim",),
    ),
    # the Police Precinct playout heuristic's scores, every decision (the compiled playout's policy);
    # the scores are those of bots/precinct/heuristic.py read on the seat's
    # policy_data (the engine never imports bots/, so the twin named is the view the policy reads)
    "precinct_policy": Twin(
        ("solver.games.precinct.view",),
        ("tests/test_precinct_kernel_policy.py::test_scores_and_choices_equal_python",),
    ),
    # the Police Precinct rules from the first turn on (the compiled playout's): the task machinery, the
    # turn flow, every task kind of procedures.py and eventcards.py
    "precinct_rules": Twin(
        ("solver.games.precinct.tasks", "solver.games.precinct.common", "solver.games.precinct.turn"),
        (
            "tests/test_precinct_kernel_rules.py::test_every_ported_step_equals_python",
            "tests/test_precinct_kernel_rules.py::test_every_character_moves_and_limits_as_in_python",
        ),
    ),
    # the Police Precinct learnt value (precinct_value.features / ValueModel.value) in nogil C, for the
    # compiled search's cut-off (PrecinctSim's returns); the seats that revealed themselves come from the
    # caller (the C state keeps no action records)
    "precinct_value": Twin(
        ("solver.search.precinct_value",),
        ("tests/test_precinct_kernel_value.py::test_features_and_value_equal_python",),
    ),
    # the Police Precinct state as one C struct (exact conversions and a memcpy copy; the rules come next)
    "precinct_state": Twin(
        ("solver.games.precinct.state",),
        ("tests/test_precinct_kernel_state.py::test_round_trip_equals_python_state",),
    ),
    # base classes of compiled simulators (the Sim protocol of solver.search.sim, held equal through
    # p07sim) and the C SplitMix64 they all draw with
    "simbase": Twin(("solver.core.rng",), ("tests/test_rng.py::test_compiled_twin_matches",)),
}

#: The compiled modules every build must produce (one per ``ext/*.pyx``).
EXT_MODULES: tuple[str, ...] = tuple(TWINS)

_warned = False


def load_ext(name: str) -> ModuleType | None:
    """Return compiled module ``solver._ext.<name>``, or None when pure Python is in force."""
    global _warned
    if PURE_REQUESTED:
        return None
    try:
        return importlib.import_module(f"solver._ext.{name}")
    except ImportError:
        if not _warned:
            _warned = True
            warnings.warn(
                "copsolver: compiled kernels not built; running on the pure-Python twins",
                RuntimeWarning,
                stacklevel=2,
            )
        return None


def compiled_status() -> dict[str, bool]:
    """Which compiled modules are in use (False for each when pure Python is in force)."""
    status = {}
    for name in EXT_MODULES:
        if PURE_REQUESTED:
            status[name] = False
            continue
        try:
            importlib.import_module(f"solver._ext.{name}")
            status[name] = True
        except ImportError:
            status[name] = False
    return status


def is_compiled() -> bool:
    """True when every compiled module is built and in use."""
    return all(compiled_status().values())
