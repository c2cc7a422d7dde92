"""Police Precinct declares itself (:class:`~solver.core.spec.GameSpec`): seats, difficulty knobs, flags."""

from __future__ import annotations

from solver.core.options import Option
from solver.core.spec import GameSpec
from solver.games.precinct import codec

SPEC = GameSpec(
    name="precinct",
    title="Police Precinct",
    game="solver.games.precinct.rules:PrecinctGame",
    min_players=1,
    max_players=8,
    default_players=4,
    num_distinct_actions=codec.NUM_ACTIONS,
    bounds="solver.games.precinct.bounds:bounds",
    summary="co-operative: solve the murder before the city falls (optional traitor: the Dirty Cop)",
    cooperative="good",
    options={
        "dirty_cop": Option(False, bool, "play with the Dirty Cop (loyalty cards; 3+ players)"),
        "dirty_cops": Option(1, int, "how many dirty cops when playing with the Dirty Cop", minimum=1,
                             maximum=6),
        "start_turn": Option(None, int, "Turn Track start (default: the set-up chart's)", minimum=1,
                             maximum=99),
        "punks": Option(None, int, "street punks in play (default: the chart's)", minimum=6, maximum=18),
        "patrol_officers": Option(None, int, "patrol officers in play (default 4; the 5th is easier)",
                                  minimum=0, maximum=5),
        "cards_dealt": Option(None, int, "police cards dealt to each player (default: the chart's)",
                              minimum=0, maximum=7),
        "start_donuts": Option(0, int, "donuts each player starts with", minimum=0, maximum=3),
        "support_vehicles": Option(None, int, "support vehicles (default: 1 at 1-2 players, else 0)",
                                   minimum=0, maximum=2),
        "support_speed": Option(3, int, "streets a support vehicle moves (3 marked, 2 unmarked)",
                                minimum=1, maximum=3),
        "events_at_start": Option(2, int, "emergencies on the board at the start", minimum=0, maximum=6),
        "city": Option(None, str, "a street map file instead of the shipped (stand-in) city", file=True),
        "content": Option(None, str, "a cards-and-tracks file instead of the shipped (stand-in) content",
                          file=True),
    },
    flags={"--dirty-cop": "dirty_cop", "--dirty-cops": "dirty_cops", "--start-turn": "start_turn",
           "--punks": "punks", "--officers": "patrol_officers", "--cards-dealt": "cards_dealt",
           "--donuts": "start_donuts", "--support": "support_vehicles", "--city": "city",
           "--content": "content"},
)
