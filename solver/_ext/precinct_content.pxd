# The Police Precinct game's content and options as one C struct (PContent), for the compiled
# simulator of issue 22: everything the rules (turn.py, common.py, procedures.py, eventcards.py,
# tasks.py, dealing.py, state.py), the playout heuristic (bots/precinct/heuristic.py over
# view.policy_data) and the learnt value (solver/search/precinct_value.py) read from st.game,
# game.content and the named places of game.city, as ints, bitmasks and fixed arrays. Twin:
# solver/games/precinct/content.py (Content) with rules.py (PrecinctGame's options).
# ext/precinct_content.pyx builds it from any PrecinctGame (any options, any content and city file the
# game accepts); tests/test_precinct_kernel_content.py holds its to_core() equal to a dict built from
# the Python objects. Names stay on the Python side (the .pyx tables, PrecinctCContent.names()).
#
# Kernels use it as
#   from solver._ext.precinct_content cimport PContent, PrecinctCContent, POW_SWAT, TX_BACKUP, ...
# and keep the PrecinctCContent alive while they hold its ``&cc.c`` pointer. The city's graph (moves,
# distances, hoods, building streets, the blocks' apartments and warehouses) is CityC
# (precinct_city.pxd); this struct holds the place ids the content and the rules name.
#
# ---------------------------------------------------------------------------------------------------
# WHAT IS IN IT, and the Python it replaces
#   characters  stat[STAT_*] (investigate, arrest, emergency: content.SYMBOLS order, which is also
#               UPGRADES' first three, so stat + upgrade is stat[s] + (upgrade s owned)) and powers as
#               POW_* bits (content.POWERS order): st.stat(cop, "arrest"), st.has(cop, "tough"),
#               "swat" in ch.powers ...
#   police      symbol (SYM_*), text (TX_*, content.TEXTS order), dbl (the "double" flag: +2 when it
#               helps), count (copies in the deck): content.police[k].text == "backup" ...
#   events      special (SP_NONE for an emergency, else SP_* = content.SPECIALS index + 1), colour
#               (COL_*, -1 for a special), number, unknown, punks (orange text), rewards (REWARDS
#               indices, file order), both, hospital, count, and the location resolved as
#               eventcards._place_fixed resolves it: loc (EL_*), loc_at (board.py's AT_BUILDING 0 /
#               AT_CROSSING 1 / AT_STREET 2 for a fixed place, else -1), loc_where (the building's
#               street / the intersection / the street, else -1), loc_building (index into
#               city.buildings' order, else -1). A special's location is resolved too, but the rules
#               never read it (each special places itself: the places below).
#   derived     emergency_kinds (bit k: event kind k is an emergency; eventcards draws and set-up),
#               special_kind[SP_*] (the event kind of each special, -1 when the content has none; the
#               loader allows one card per special)
#   markers     unknown_counts[UK_*], gangs (each marker's effect GANG_*, marker order = the initial
#               gang_pool), upgrade_counts[UP_*], deck_evidence / deck_useless [DECK_*],
#               loyalty_actions (LA_* in file order: the LOYALTY options' order) and loyalty_mask
#   tracks      reveal_donuts, murderer_turn, fail_turn (the Turn Track's FAIL space), crime_fail (the
#               City Crime Track's FAIL space), donuts (the supply), stand_in
#   options     players, dirty_cops (game.dirty_cops: 0 without the Dirty Cop), picks (characters
#               picked: 2 solo, else players = the cops), cards_dealt, punks, start_turn,
#               patrol_officers, start_donuts, support_vehicles, support_speed, events_at_start
#   places      (building indices into city.buildings' order, streets and intersections as city ids)
#               station (city.STATION "Police Station": game.station, the cars' start, Jail Break,
#               Detainees, Escort Van, Optional Training), hospital ("Hospital": common.hospital),
#               city_hall (eventcards.ESCORT_TO: the escort van's goal), west_calhoun (the Gas Leak's
#               street), escape[PC_ESCAPE] (eventcards._ESCAPE_ROUTE: Police Station, Hospital,
#               Knights Apartments), apartments / warehouses [block] (the rolled buildings), the
#               stacks' start: deck_building (crime_scene at "Crime Scene Lot", examine_body at
#               "Morgue", else -1) and deck_roll (EL_APARTMENT for interview, EL_WAREHOUSE for weapon,
#               set-up's stack_block; EL_NONE for a fixed one), and the city's sizes.
#
# BOUNDS (checked by PrecinctCContent, which raises BadStateError instead of overflowing; most are
# PrecinctGame's or the content loader's own limits):
#   PC_MAX_CHARACTERS 16      codec.MAX_CHARACTERS (PrecinctGame._check_layout)
#   PC_MAX_POLICE_KINDS 32    codec.MAX_POLICE_KINDS
#   PC_MAX_EVENT_KINDS 64     codec.MAX_EVENT_KINDS (emergency_kinds is one uint64)
#   PC_MAX_GANGS 16           len(GANGS) * 4, the loader's limit
#   PC_MAX_REWARDS 2          rewards per event card (the loader: one or two; none for some specials)
#   PC_MAX_COUNT 200          content.MAX_TOTAL: any count, pile, donut supply
#   PC_MAX_TRACK 100          content.MAX_TRACK: murderer_turn, fail_turn, crime_fail
#   PC_MAX_VALUE 6            content.MAX_VALUE: a stat (1..6), an event's number (0..6)
#   PC_MAX_PUNKS_ON_CARD 2    orange text
#   PC_MAX_PLACES 64          streets, intersections, buildings (city.py's limits; int8 ids)
#   options: players 1..8, dirty_cops 0..6, cards_dealt 0..7, punks 6..18, start_turn 1..99,
#   patrol_officers 0..5, start_donuts 0..3, support_vehicles 0..2, support_speed 1..3,
#   events_at_start 0..6 (spec.py's ranges); picks <= n_characters.
# ---------------------------------------------------------------------------------------------------

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t

cdef enum:
    PC_MAX_CHARACTERS = 16
    PC_MAX_POLICE_KINDS = 32
    PC_MAX_EVENT_KINDS = 64
    PC_MAX_GANGS = 16
    PC_MAX_REWARDS = 2
    PC_MAX_COUNT = 200
    PC_MAX_TRACK = 100
    PC_MAX_VALUE = 6
    PC_MAX_PUNKS_ON_CARD = 2
    PC_MAX_PLACES = 64
    PC_STATS = 3
    PC_UNKNOWN_KINDS = 10
    PC_UPGRADE_KINDS = 4
    PC_DECKS = 4
    PC_LOYALTY_KINDS = 3
    PC_BLOCKS = 6
    PC_ESCAPE = 3

# The enums are anonymous so that their codes index arrays directly (Cython refuses a named enum type
# as an index); each block's comment names it.

# A character's values and a police card's symbol (content.SYMBOLS order). UP_INVESTIGATE..UP_EMERGENCY
# equal these, so the matching upgrade of a stat is the same code.
cdef enum:                  # Stat
    STAT_INVESTIGATE = 0
    STAT_ARREST = 1
    STAT_EMERGENCY = 2

cdef enum:                  # Symbol
    SYM_INVESTIGATE = 0
    SYM_ARREST = 1
    SYM_EMERGENCY = 2

# Powers as bits (content.POWERS order).
cdef enum:                  # Power
    POW_THOROUGH = 1 << 0
    POW_SWAT = 1 << 1
    POW_FEDERAL_AGENT = 1 << 2
    POW_FAST = 1 << 3
    POW_TOUGH = 1 << 4
    POW_NEGOTIATOR = 1 << 5
    POW_FORENSICS = 1 << 6
    POW_STREET_SMART = 1 << 7
    POW_MOTORCYCLE = 1 << 8
    POW_CANVASSER = 1 << 9
    POW_DONUT_LOVER = 1 << 10
    POW_BIG_HAND = 1 << 11
    POW_DESK_SERGEANT = 1 << 12

# A police card's text effect (content.TEXTS order).
cdef enum:                  # Text
    TX_FRESH_PERSPECTIVE = 0
    TX_DISPATCH_OFFICERS
    TX_AIR_SUPPORT
    TX_OVERTIME
    TX_BACKUP
    TX_CRIME_LAB
    TX_COMMUNITY_OUTREACH
    TX_TOW_TRUCK
    TX_INFORMANT_TIP
    TX_COFFEE_BREAK
    TX_PAPERWORK
    TX_HOT_PURSUIT
    TX_COUNT

# An event's reward (content.REWARDS order: the take_reward task's index).
cdef enum:                  # Reward
    RW_DONUT = 0
    RW_POLICE_CARD
    RW_LOOK_INVESTIGATION
    RW_LOOK_EVENT
    RW_SKIP_EVENT
    RW_COUNT

# An event's special (content.SPECIALS index + 1; 0 is an emergency).
cdef enum:                  # Special
    SP_NONE = 0
    SP_PROBLEMS_IN_THE_HOOD
    SP_STREET_RIOT
    SP_GAS_LEAK
    SP_JAIL_BREAK
    SP_DETAINEES_RUN_AMOK
    SP_DEDICATED_OFFICER
    SP_OFFICER_DOWN
    SP_OVERBURDENED
    SP_CRIME_WAVE
    SP_ESCORT_VAN
    SP_OPTIONAL_TRAINING
    SP_CAR_THEFT
    SP_INTERNAL_AFFAIRS
    SP_COUNT

# An emergency's colour (content.COLORS order; -1 for a special).
cdef enum:                  # Colour
    COL_RED = 0
    COL_BLUE
    COL_GREEN
    COL_YELLOW

# Where an event card goes: nowhere (a special not placed by its location), a named place, or a place
# rolled at placement (content.ROLLED_LOCATIONS; the place_roll task's RL_* code is loc - EL_APARTMENT).
cdef enum:                  # EventLocation
    EL_NONE = 0
    EL_BUILDING
    EL_CROSSING
    EL_STREET
    EL_APARTMENT
    EL_WAREHOUSE
    EL_HOOD

# Unknown Circumstances markers (content.UNKNOWN order).
cdef enum:                  # UnknownKind
    UK_INSIDER_KNOWLEDGE = 0
    UK_PUNKS
    UK_STOLEN_GOODS
    UK_DISRESPECT
    UK_RESPECT
    UK_ANGRY_DOG
    UK_BIG_KNIFE
    UK_SHOTGUN
    UK_HOSTAGE
    UK_BOMB

# A street gang marker's effect (content.GANGS order).
cdef enum:                  # GangEffect
    GANG_ENFORCERS = 0
    GANG_RECRUITERS
    GANG_LOOKOUTS
    GANG_BLOCKERS

# Upgrades (content.UPGRADES order) and investigation decks (content.DECKS order).
cdef enum:                  # Upgrade
    UP_INVESTIGATE = 0
    UP_ARREST
    UP_EMERGENCY
    UP_MOVE

cdef enum:                  # Deck
    DECK_CRIME_SCENE = 0
    DECK_INTERVIEW
    DECK_EXAMINE_BODY
    DECK_WEAPON

# A revealed dirty cop's actions (content.LOYALTY_ACTIONS order: codec.LOYALTY + code).
cdef enum:                  # LoyaltyAction
    LA_INCITE = 0
    LA_STEAL_DONUT
    LA_STIR_TROUBLE


cdef struct PCharacter:
    int8_t stat[PC_STATS]           # STAT_* -> 1..6
    uint16_t powers                 # POW_* bits


cdef struct PPolice:
    int8_t symbol                   # SYM_*
    int8_t text                     # TX_*
    uint8_t dbl                     # the card's "double": it helps with +2 ("double" is a C keyword)
    int16_t count                   # copies in the deck (content.police_counts)


cdef struct PEvent:
    int8_t special                  # SP_*; SP_NONE: an emergency
    int8_t colour                   # COL_*; -1 for a special
    int8_t number
    int8_t loc                      # EL_*
    int8_t loc_at                   # board AT_* of a named place, -1 otherwise
    int8_t loc_where                # building street / intersection / street, -1 otherwise
    int8_t loc_building             # building index, -1 otherwise
    uint8_t unknown                 # it takes an Unknown Circumstances marker
    uint8_t punks                   # orange text: punks placed with it (0..2)
    uint8_t both                    # both rewards, not a choice
    uint8_t hospital                # a failed roll sends the car to the hospital
    uint8_t n_rewards
    uint8_t rewards[PC_MAX_REWARDS] # RW_*, in the card's order
    int16_t count                   # copies in the deck (content.event_counts)


cdef struct PContent:
    # content sizes
    uint8_t n_characters
    uint8_t n_police
    uint8_t n_events
    uint8_t n_gangs
    uint8_t n_loyalty
    uint8_t stand_in
    PCharacter characters[PC_MAX_CHARACTERS]
    PPolice police[PC_MAX_POLICE_KINDS]
    PEvent events[PC_MAX_EVENT_KINDS]
    uint64_t emergency_kinds        # bit k: event kind k is an emergency
    int8_t special_kind[SP_COUNT]   # SP_* -> its event kind, -1 none (index SP_NONE: always -1)
    int16_t unknown_counts[PC_UNKNOWN_KINDS]
    int8_t gangs[PC_MAX_GANGS]      # marker -> GANG_*
    int16_t upgrade_counts[PC_UPGRADE_KINDS]
    int16_t deck_evidence[PC_DECKS]
    int16_t deck_useless[PC_DECKS]
    int8_t loyalty_actions[PC_LOYALTY_KINDS]   # LA_*, file order
    uint8_t loyalty_mask            # bit a: LA a is offered
    # tracks
    int16_t reveal_donuts
    int16_t murderer_turn
    int16_t fail_turn
    int16_t crime_fail
    int16_t donuts
    # options (after the set-up chart)
    int8_t players
    int8_t dirty_cops
    int8_t picks
    int8_t cards_dealt
    int8_t punks
    int8_t start_turn
    int8_t patrol_officers
    int8_t start_donuts
    int8_t support_vehicles
    int8_t support_speed
    int8_t events_at_start
    # places (building indices, streets, intersections: city ids)
    int8_t n_streets
    int8_t n_intersections
    int8_t n_buildings
    int8_t station_building
    int8_t station_street
    int8_t hospital_building
    int8_t hospital_street
    int8_t city_hall_building
    int8_t city_hall_street
    int8_t west_calhoun
    int8_t escape_building[PC_ESCAPE]   # the jail breakers' route, in order
    int8_t escape_street[PC_ESCAPE]
    int8_t apartments[PC_BLOCKS]        # block b+1's apartment building
    int8_t warehouses[PC_BLOCKS]
    int8_t deck_building[PC_DECKS]      # a stack's building at the start, -1 when rolled at set-up
    int8_t deck_roll[PC_DECKS]          # EL_APARTMENT / EL_WAREHOUSE when rolled, else EL_NONE


cdef inline bint pc_has(const PContent* c, int ch, int power) noexcept nogil:
    # st.has(cop, power) for character ``ch`` and a POW_* bit
    return (c.characters[ch].powers & power) != 0


cdef inline int pc_stat(const PContent* c, int ch, int stat) noexcept nogil:
    # the character's STAT_* value, before its upgrade (st.stat adds 1 when upgrade ``stat`` is owned)
    return c.characters[ch].stat[stat]


cdef class PrecinctCContent:
    cdef PContent c
    cdef readonly object game       # the PrecinctGame it was built from (names for debugging)
