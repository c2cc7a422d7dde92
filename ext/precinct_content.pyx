# The Police Precinct game's content and options as one C struct (solver/_ext/precinct_content.pxd,
# whose header lists what is in it, what Python it replaces, and the bounds). Twin:
# solver/games/precinct/content.py with rules.py's options. PrecinctCContent(game) reads a
# PrecinctGame into a PContent (BadStateError past a bound or for a value the loader never makes);
# to_core() writes it back as plain ints for the tests; names() keeps the names for debugging.
"""The Police Precinct content and options in one C struct, read by the compiled rules."""

from libc.string cimport memset

from solver.core.errors import BadStateError
from solver.games.precinct import board as _board
from solver.games.precinct import city as _city
from solver.games.precinct import codec as _codec
from solver.games.precinct import content as _content

# --- the tables of names (index = the code in the .pxd enums) -------------------------------------

STAT_NAMES = ("investigate", "arrest", "emergency")
SYMBOL_NAMES = ("investigate", "arrest", "emergency")
POWER_NAMES = (
    "thorough", "swat", "federal_agent", "fast", "tough", "negotiator", "forensics",
    "street_smart", "motorcycle", "canvasser", "donut_lover", "big_hand", "desk_sergeant",
)
TEXT_NAMES = (
    "fresh_perspective", "dispatch_officers", "air_support", "overtime", "backup", "crime_lab",
    "community_outreach", "tow_truck", "informant_tip", "coffee_break", "paperwork", "hot_pursuit",
)
REWARD_NAMES = ("donut", "police_card", "look_investigation", "look_event", "skip_event")
#: index SP_NONE is the emergency's "" special
SPECIAL_NAMES = (
    "", "problems_in_the_hood", "street_riot", "gas_leak", "jail_break", "detainees_run_amok",
    "dedicated_officer", "officer_down", "overburdened", "crime_wave", "escort_van",
    "optional_training", "car_theft", "internal_affairs",
)
COLOUR_NAMES = ("red", "blue", "green", "yellow")
#: EL_* -> how the content names it ("" for EL_NONE; the named kinds hold a place's name)
LOCATION_NAMES = ("", "building", "intersection", "street", "apartment", "warehouse", "hood")
UNKNOWN_NAMES = (
    "insider_knowledge", "punks", "stolen_goods", "disrespect", "respect", "angry_dog",
    "big_knife", "shotgun", "hostage", "bomb",
)
GANG_NAMES = ("enforcers", "recruiters", "lookouts", "blockers")
UPGRADE_NAMES = ("investigate", "arrest", "emergency", "move")
DECK_NAMES = ("crime_scene", "interview", "examine_body", "weapon")
LOYALTY_NAMES = ("incite", "steal_donut", "stir_trouble")

# The places the rules name (turn.py, common.py, state.py, eventcards.py), read from the city by name.
STATION = "Police Station"
HOSPITAL = "Hospital"
CITY_HALL = "City Hall"                 # eventcards.ESCORT_TO
WEST_CALHOUN = "West Calhoun"           # the Gas Leak
ESCAPE_ROUTE = ("Police Station", "Hospital", "Knights Apartments")   # eventcards._ESCAPE_ROUTE
DECK_START = ("Crime Scene Lot", "", "Morgue", "")                   # PrecinctState.__init__
DECK_ROLL = (EL_NONE, EL_APARTMENT, EL_NONE, EL_WAREHOUSE)            # turn.py's stack_block

#: every bound and fixed size of the layout, by its .pxd name
BOUNDS = {
    "PC_MAX_CHARACTERS": PC_MAX_CHARACTERS, "PC_MAX_POLICE_KINDS": PC_MAX_POLICE_KINDS,
    "PC_MAX_EVENT_KINDS": PC_MAX_EVENT_KINDS, "PC_MAX_GANGS": PC_MAX_GANGS,
    "PC_MAX_REWARDS": PC_MAX_REWARDS, "PC_MAX_COUNT": PC_MAX_COUNT, "PC_MAX_TRACK": PC_MAX_TRACK,
    "PC_MAX_VALUE": PC_MAX_VALUE, "PC_MAX_PUNKS_ON_CARD": PC_MAX_PUNKS_ON_CARD,
    "PC_MAX_PLACES": PC_MAX_PLACES, "PC_STATS": PC_STATS, "PC_UNKNOWN_KINDS": PC_UNKNOWN_KINDS,
    "PC_UPGRADE_KINDS": PC_UPGRADE_KINDS, "PC_DECKS": PC_DECKS, "PC_LOYALTY_KINDS": PC_LOYALTY_KINDS,
    "PC_BLOCKS": PC_BLOCKS, "PC_ESCAPE": PC_ESCAPE,
}
#: the enum constants of the .pxd, by name (the tests hold them to content.py's tuples)
CONSTANTS = {
    "STAT_INVESTIGATE": STAT_INVESTIGATE, "STAT_ARREST": STAT_ARREST, "STAT_EMERGENCY": STAT_EMERGENCY,
    "SYM_INVESTIGATE": SYM_INVESTIGATE, "SYM_ARREST": SYM_ARREST, "SYM_EMERGENCY": SYM_EMERGENCY,
    "POW_THOROUGH": POW_THOROUGH, "POW_SWAT": POW_SWAT, "POW_FEDERAL_AGENT": POW_FEDERAL_AGENT,
    "POW_FAST": POW_FAST, "POW_TOUGH": POW_TOUGH, "POW_NEGOTIATOR": POW_NEGOTIATOR,
    "POW_FORENSICS": POW_FORENSICS, "POW_STREET_SMART": POW_STREET_SMART,
    "POW_MOTORCYCLE": POW_MOTORCYCLE, "POW_CANVASSER": POW_CANVASSER,
    "POW_DONUT_LOVER": POW_DONUT_LOVER, "POW_BIG_HAND": POW_BIG_HAND,
    "POW_DESK_SERGEANT": POW_DESK_SERGEANT,
    "TX_FRESH_PERSPECTIVE": TX_FRESH_PERSPECTIVE, "TX_DISPATCH_OFFICERS": TX_DISPATCH_OFFICERS,
    "TX_AIR_SUPPORT": TX_AIR_SUPPORT, "TX_OVERTIME": TX_OVERTIME, "TX_BACKUP": TX_BACKUP,
    "TX_CRIME_LAB": TX_CRIME_LAB, "TX_COMMUNITY_OUTREACH": TX_COMMUNITY_OUTREACH,
    "TX_TOW_TRUCK": TX_TOW_TRUCK, "TX_INFORMANT_TIP": TX_INFORMANT_TIP,
    "TX_COFFEE_BREAK": TX_COFFEE_BREAK, "TX_PAPERWORK": TX_PAPERWORK, "TX_HOT_PURSUIT": TX_HOT_PURSUIT,
    "TX_COUNT": TX_COUNT,
    "RW_DONUT": RW_DONUT, "RW_POLICE_CARD": RW_POLICE_CARD,
    "RW_LOOK_INVESTIGATION": RW_LOOK_INVESTIGATION, "RW_LOOK_EVENT": RW_LOOK_EVENT,
    "RW_SKIP_EVENT": RW_SKIP_EVENT, "RW_COUNT": RW_COUNT,
    "SP_NONE": SP_NONE, "SP_PROBLEMS_IN_THE_HOOD": SP_PROBLEMS_IN_THE_HOOD,
    "SP_STREET_RIOT": SP_STREET_RIOT, "SP_GAS_LEAK": SP_GAS_LEAK, "SP_JAIL_BREAK": SP_JAIL_BREAK,
    "SP_DETAINEES_RUN_AMOK": SP_DETAINEES_RUN_AMOK, "SP_DEDICATED_OFFICER": SP_DEDICATED_OFFICER,
    "SP_OFFICER_DOWN": SP_OFFICER_DOWN, "SP_OVERBURDENED": SP_OVERBURDENED,
    "SP_CRIME_WAVE": SP_CRIME_WAVE, "SP_ESCORT_VAN": SP_ESCORT_VAN,
    "SP_OPTIONAL_TRAINING": SP_OPTIONAL_TRAINING, "SP_CAR_THEFT": SP_CAR_THEFT,
    "SP_INTERNAL_AFFAIRS": SP_INTERNAL_AFFAIRS, "SP_COUNT": SP_COUNT,
    "COL_RED": COL_RED, "COL_BLUE": COL_BLUE, "COL_GREEN": COL_GREEN, "COL_YELLOW": COL_YELLOW,
    "EL_NONE": EL_NONE, "EL_BUILDING": EL_BUILDING, "EL_CROSSING": EL_CROSSING,
    "EL_STREET": EL_STREET, "EL_APARTMENT": EL_APARTMENT, "EL_WAREHOUSE": EL_WAREHOUSE,
    "EL_HOOD": EL_HOOD,
    "UK_INSIDER_KNOWLEDGE": UK_INSIDER_KNOWLEDGE, "UK_PUNKS": UK_PUNKS,
    "UK_STOLEN_GOODS": UK_STOLEN_GOODS, "UK_DISRESPECT": UK_DISRESPECT, "UK_RESPECT": UK_RESPECT,
    "UK_ANGRY_DOG": UK_ANGRY_DOG, "UK_BIG_KNIFE": UK_BIG_KNIFE, "UK_SHOTGUN": UK_SHOTGUN,
    "UK_HOSTAGE": UK_HOSTAGE, "UK_BOMB": UK_BOMB,
    "GANG_ENFORCERS": GANG_ENFORCERS, "GANG_RECRUITERS": GANG_RECRUITERS,
    "GANG_LOOKOUTS": GANG_LOOKOUTS, "GANG_BLOCKERS": GANG_BLOCKERS,
    "UP_INVESTIGATE": UP_INVESTIGATE, "UP_ARREST": UP_ARREST, "UP_EMERGENCY": UP_EMERGENCY,
    "UP_MOVE": UP_MOVE,
    "DECK_CRIME_SCENE": DECK_CRIME_SCENE, "DECK_INTERVIEW": DECK_INTERVIEW,
    "DECK_EXAMINE_BODY": DECK_EXAMINE_BODY, "DECK_WEAPON": DECK_WEAPON,
    "LA_INCITE": LA_INCITE, "LA_STEAL_DONUT": LA_STEAL_DONUT, "LA_STIR_TROUBLE": LA_STIR_TROUBLE,
}
#: bytes in one PContent
CONTENT_BYTES = sizeof(PContent)


def _check_tables():
    """The tables here must match content.py's and the layout's; drift is an import error."""
    same = ((STAT_NAMES, _content.SYMBOLS), (SYMBOL_NAMES, _content.SYMBOLS),
            (POWER_NAMES, _content.POWERS), (TEXT_NAMES, _content.TEXTS),
            (REWARD_NAMES, _content.REWARDS), (SPECIAL_NAMES[1:], _content.SPECIALS),
            (COLOUR_NAMES, _content.COLORS), (LOCATION_NAMES[EL_APARTMENT:], _content.ROLLED_LOCATIONS),
            (UNKNOWN_NAMES, _content.UNKNOWN), (GANG_NAMES, _content.GANGS),
            (UPGRADE_NAMES, _content.UPGRADES), (DECK_NAMES, _content.DECKS),
            (LOYALTY_NAMES, _content.LOYALTY_ACTIONS), (STAT_NAMES, _content.UPGRADES[:PC_STATS]))
    if any(tuple(a) != tuple(b) for a, b in same):
        raise ImportError("solver._ext.precinct_content: the name tables disagree with content.py")
    fixed = ((len(POWER_NAMES), 13), (len(TEXT_NAMES), TX_COUNT), (len(REWARD_NAMES), RW_COUNT),
             (len(SPECIAL_NAMES), SP_COUNT), (len(UNKNOWN_NAMES), PC_UNKNOWN_KINDS),
             (len(UPGRADE_NAMES), PC_UPGRADE_KINDS), (len(DECK_NAMES), PC_DECKS),
             (len(LOYALTY_NAMES), PC_LOYALTY_KINDS), (len(GANG_NAMES) * 4, PC_MAX_GANGS),
             (_codec.MAX_CHARACTERS, PC_MAX_CHARACTERS), (_codec.MAX_POLICE_KINDS, PC_MAX_POLICE_KINDS),
             (_codec.MAX_EVENT_KINDS, PC_MAX_EVENT_KINDS), (_content.MAX_TOTAL, PC_MAX_COUNT),
             (_content.MAX_TRACK, PC_MAX_TRACK), (_content.MAX_VALUE, PC_MAX_VALUE),
             (_city.MAX_STREETS, PC_MAX_PLACES), (_city.MAX_INTERSECTIONS, PC_MAX_PLACES),
             (_city.MAX_BUILDINGS, PC_MAX_PLACES), (_city.BLOCKS, PC_BLOCKS))
    if any(a != b for a, b in fixed) or _city.STATION != STATION:
        raise ImportError("solver._ext.precinct_content: bounds disagree with solver.games.precinct")


_check_tables()

_POWER_BIT = {name: 1 << i for i, name in enumerate(POWER_NAMES)}
_CODE = {kind: {name: i for i, name in enumerate(names)} for kind, names in (
    ("symbol", SYMBOL_NAMES), ("text", TEXT_NAMES), ("reward", REWARD_NAMES), ("special", SPECIAL_NAMES),
    ("colour", COLOUR_NAMES), ("gang", GANG_NAMES), ("loyalty", LOYALTY_NAMES))}
_ROLLED = {"apartment": EL_APARTMENT, "warehouse": EL_WAREHOUSE, "hood": EL_HOOD}


# --- checked reads --------------------------------------------------------------------------------

cdef int _int(object v, int lo, int hi, str what) except? -99999:
    # an int in lo..hi (an IntEnum such as content.Symbol counts; a bool does not)
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadStateError(f"precinct kernel content: {what} is {v!r}, not an int")
    if not lo <= v <= hi:
        raise BadStateError(f"precinct kernel content: {what} = {v} is outside {lo}..{hi}")
    return <int>v


cdef uint8_t _bool(object v, str what) except 255:
    if type(v) is not bool:
        raise BadStateError(f"precinct kernel content: {what} is {v!r}, not a bool")
    return 1 if v else 0


cdef int _code(object name, str kind, str what) except -1:
    code = _CODE[kind].get(name) if isinstance(name, str) else None
    if code is None:
        raise BadStateError(f"precinct kernel content: {what} {name!r} is not a known {kind}")
    return code


cdef int _len(object seq, int lo, int hi, str what) except -1:
    cdef Py_ssize_t n = len(seq)
    if not lo <= n <= hi:
        raise BadStateError(f"precinct kernel content: {what} holds {n} entries; the layout holds "
                            f"{lo}..{hi}")
    return <int>n


cdef int _place(dict index, object name, str what) except -2:
    if name not in index:
        raise BadStateError(f"precinct kernel content: the city has no {what} {name!r}")
    return index[name]


# --- the conversion -------------------------------------------------------------------------------

cdef int _encode_event(PEvent* e, object card, int count, object city, dict building_index,
                       str what) except -1:
    cdef int i, n
    e.special = _code(card.special, "special", f"{what} special")
    if e.special == SP_NONE:
        e.colour = _code(card.color, "colour", f"{what} colour")
    elif card.color != "":
        raise BadStateError(f"precinct kernel content: {what} is a special with colour {card.color!r}")
    else:
        e.colour = -1
    e.number = _int(card.number, 0, PC_MAX_VALUE, f"{what} number")
    e.unknown = _bool(card.unknown, f"{what} unknown")
    e.punks = _int(card.punks, 0, PC_MAX_PUNKS_ON_CARD, f"{what} punks")
    e.both = _bool(card.both, f"{what} both")
    e.hospital = _bool(card.hospital, f"{what} hospital")
    n = _len(card.rewards, 0, PC_MAX_REWARDS, f"{what} rewards")
    e.n_rewards = n
    for i in range(n):
        e.rewards[i] = _code(card.rewards[i], "reward", f"{what} reward")
    e.count = _int(count, 0, PC_MAX_COUNT, f"{what} count")
    # the location, resolved in eventcards._place_fixed's order: a building, an intersection, a street
    location = card.location
    e.loc_at = e.loc_where = e.loc_building = -1
    if not isinstance(location, str):
        raise BadStateError(f"precinct kernel content: {what} location {location!r} is not a name")
    if location in _ROLLED:
        e.loc = _ROLLED[location]
    elif location == "":
        if e.special == SP_NONE:
            raise BadStateError(f"precinct kernel content: {what} is an emergency without a location")
        e.loc = EL_NONE
    elif location in city.buildings:
        e.loc, e.loc_at = EL_BUILDING, _board.AT_BUILDING
        e.loc_where = city.buildings[location]
        e.loc_building = building_index[location]
    elif location in city.intersection_ids:
        e.loc, e.loc_at = EL_CROSSING, _board.AT_CROSSING
        e.loc_where = city.intersection_ids[location]
    elif location in city.street_ids:
        e.loc, e.loc_at = EL_STREET, _board.AT_STREET
        e.loc_where = city.street_ids[location]
    else:
        raise BadStateError(f"precinct kernel content: {what} location {location!r} is not a place "
                            "of the city")
    return 0


cdef int _encode(PContent* c, object game) except -1:
    cdef int i, k, n
    memset(c, 0, sizeof(PContent))
    content = game.content
    city = game.city
    # the city's sizes and names
    c.n_streets = _len(city.streets, 1, PC_MAX_PLACES, "the city's streets")
    c.n_intersections = _len(city.intersections, 1, PC_MAX_PLACES, "the city's intersections")
    c.n_buildings = _len(city.buildings, 1, PC_MAX_PLACES, "the city's buildings")
    buildings = tuple(city.buildings)
    building_index = {name: b for b, name in enumerate(buildings)}
    # characters
    n = c.n_characters = _len(content.characters, 1, PC_MAX_CHARACTERS, "the characters")
    for k in range(n):
        ch = content.characters[k]
        what = f"character {k}"
        c.characters[k].stat[STAT_INVESTIGATE] = _int(ch.investigate, 1, PC_MAX_VALUE,
                                                           f"{what} investigate")
        c.characters[k].stat[STAT_ARREST] = _int(ch.arrest, 1, PC_MAX_VALUE, f"{what} arrest")
        c.characters[k].stat[STAT_EMERGENCY] = _int(ch.emergency, 1, PC_MAX_VALUE, f"{what} emergency")
        for p in ch.powers:
            if p not in _POWER_BIT:
                raise BadStateError(f"precinct kernel content: {what} power {p!r} is not a known power")
            c.characters[k].powers |= _POWER_BIT[p]
    # police cards
    n = c.n_police = _len(content.police, 1, PC_MAX_POLICE_KINDS, "the police card kinds")
    _len(content.police_counts, n, n, "the police card counts")
    for k in range(n):
        card = content.police[k]
        what = f"police card {k}"
        c.police[k].symbol = _int(card.symbol, 0, len(SYMBOL_NAMES) - 1, f"{what} symbol")
        c.police[k].text = _code(card.text, "text", f"{what} text")
        c.police[k].dbl = _bool(card.double, f"{what} double")
        c.police[k].count = _int(content.police_counts[k], 0, PC_MAX_COUNT, f"{what} count")
    # event cards
    n = c.n_events = _len(content.events, 1, PC_MAX_EVENT_KINDS, "the event card kinds")
    _len(content.event_counts, n, n, "the event card counts")
    for k in range(SP_COUNT):
        c.special_kind[k] = -1
    for k in range(n):
        _encode_event(&c.events[k], content.events[k], content.event_counts[k], city, building_index,
                      f"event card {k}")
        if c.events[k].special == SP_NONE:
            c.emergency_kinds |= (<uint64_t>1) << k
        elif c.special_kind[c.events[k].special] >= 0:
            raise BadStateError(f"precinct kernel content: two event kinds are the special "
                                f"{content.events[k].special!r} (the layout keeps one)")
        else:
            c.special_kind[c.events[k].special] = k
    # markers, decks, loyalty
    _len(content.unknown_counts, PC_UNKNOWN_KINDS, PC_UNKNOWN_KINDS, "the unknown counts")
    for k in range(PC_UNKNOWN_KINDS):
        c.unknown_counts[k] = _int(content.unknown_counts[k], 0, PC_MAX_COUNT, "an unknown count")
    n = c.n_gangs = _len(content.gangs, 1, PC_MAX_GANGS, "the gang markers")
    for k in range(n):
        c.gangs[k] = _code(content.gangs[k], "gang", f"gang marker {k}")
    _len(content.upgrade_counts, PC_UPGRADE_KINDS, PC_UPGRADE_KINDS, "the upgrade counts")
    for k in range(PC_UPGRADE_KINDS):
        c.upgrade_counts[k] = _int(content.upgrade_counts[k], 0, PC_MAX_COUNT, "an upgrade count")
    _len(content.decks, PC_DECKS, PC_DECKS, "the investigation decks")
    for k in range(PC_DECKS):
        evidence, useless = content.decks[k]
        c.deck_evidence[k] = _int(evidence, 0, PC_MAX_COUNT, f"deck {k} evidence")
        c.deck_useless[k] = _int(useless, 0, PC_MAX_COUNT, f"deck {k} useless cards")
        c.deck_building[k] = _place(building_index, DECK_START[k], "building") if DECK_START[k] else -1
        c.deck_roll[k] = DECK_ROLL[k]
    n = c.n_loyalty = _len(content.loyalty_actions, 0, PC_LOYALTY_KINDS, "the loyalty actions")
    for k in range(n):
        c.loyalty_actions[k] = _code(content.loyalty_actions[k], "loyalty", "a loyalty action")
        if c.loyalty_mask >> c.loyalty_actions[k] & 1:
            raise BadStateError("precinct kernel content: a loyalty action is listed twice")
        c.loyalty_mask |= 1 << c.loyalty_actions[k]
    # tracks
    c.donuts = _int(content.donuts, 0, PC_MAX_COUNT, "donuts")
    c.reveal_donuts = _int(content.reveal_donuts, 0, PC_MAX_COUNT, "reveal_donuts")
    c.murderer_turn = _int(content.murderer_turn, 0, PC_MAX_TRACK, "murderer_turn")
    c.fail_turn = _int(content.fail_turn, 0, PC_MAX_TRACK, "fail_turn")
    c.crime_fail = _int(content.crime_fail, 0, PC_MAX_TRACK, "crime_fail")
    c.stand_in = _bool(content.stand_in, "stand_in")
    # options, as the game settled them (the set-up chart applied)
    c.players = _int(game.num_players, 1, 8, "players")
    c.dirty_cops = _int(game.dirty_cops, 0, 6, "dirty_cops")
    c.picks = 2 if c.players == 1 else c.players
    if c.picks > c.n_characters:
        raise BadStateError(f"precinct kernel content: {c.picks} characters picked from {c.n_characters}")
    c.cards_dealt = _int(game.cards_dealt, 0, 7, "cards_dealt")
    c.punks = _int(game.punks, 6, 18, "punks")
    c.start_turn = _int(game.start_turn, 1, 99, "start_turn")
    c.patrol_officers = _int(game.patrol_officers, 0, 5, "patrol_officers")
    c.start_donuts = _int(game.start_donuts, 0, 3, "start_donuts")
    c.support_vehicles = _int(game.support_vehicles, 0, 2, "support_vehicles")
    c.support_speed = _int(game.support_speed, 1, 3, "support_speed")
    c.events_at_start = _int(game.events_at_start, 0, 6, "events_at_start")
    # places
    c.station_building = _place(building_index, STATION, "building")
    c.station_street = city.buildings[STATION]
    c.hospital_building = _place(building_index, HOSPITAL, "building")
    c.hospital_street = city.buildings[HOSPITAL]
    c.city_hall_building = _place(building_index, CITY_HALL, "building")
    c.city_hall_street = city.buildings[CITY_HALL]
    c.west_calhoun = _place(dict(city.street_ids), WEST_CALHOUN, "street")
    for k in range(PC_ESCAPE):
        c.escape_building[k] = _place(building_index, ESCAPE_ROUTE[k], "building")
        c.escape_street[k] = city.buildings[ESCAPE_ROUTE[k]]
    _len(city.apartments, PC_BLOCKS, PC_BLOCKS, "the city's apartments")
    _len(city.warehouses, PC_BLOCKS, PC_BLOCKS, "the city's warehouses")
    for k in range(PC_BLOCKS):
        c.apartments[k] = _place(building_index, city.apartments[k], "building")
        c.warehouses[k] = _place(building_index, city.warehouses[k], "building")
    return 0


cdef tuple _ints(const int8_t* a, int n):
    return tuple([a[i] for i in range(n)])


cdef tuple _ints16(const int16_t* a, int n):
    return tuple([a[i] for i in range(n)])


cdef class PrecinctCContent:
    """A PrecinctGame's content, options and named places in a C struct (``PContent``)."""

    def __init__(self, game):
        """Read ``game`` (a PrecinctGame); BadStateError when it exceeds a bound of the layout."""
        _encode(&self.c, game)
        self.game = game

    def to_core(self):
        """Every field as plain Python ints, bools and tuples (codes as in the .pxd enums), named as
        in PContent, characters, police cards and event cards as lists of dicts."""
        cdef PContent* c = &self.c
        cdef PEvent* e
        cdef int k
        events = []
        for k in range(c.n_events):
            e = &c.events[k]
            events.append({
                "special": e.special, "colour": e.colour, "number": e.number, "loc": e.loc,
                "loc_at": e.loc_at, "loc_where": e.loc_where, "loc_building": e.loc_building,
                "unknown": bool(e.unknown), "punks": e.punks, "both": bool(e.both),
                "hospital": bool(e.hospital), "rewards": tuple([e.rewards[i] for i in range(e.n_rewards)]),
                "count": e.count,
            })
        return {
            "characters": [{"stat": _ints(c.characters[k].stat, PC_STATS), "powers": c.characters[k].powers}
                           for k in range(c.n_characters)],
            "police": [{"symbol": c.police[k].symbol, "text": c.police[k].text,
                        "double": bool(c.police[k].dbl), "count": c.police[k].count}
                       for k in range(c.n_police)],
            "events": events,
            "emergency_kinds": c.emergency_kinds,
            "special_kind": _ints(c.special_kind, SP_COUNT),
            "unknown_counts": _ints16(c.unknown_counts, PC_UNKNOWN_KINDS),
            "gangs": _ints(c.gangs, c.n_gangs),
            "upgrade_counts": _ints16(c.upgrade_counts, PC_UPGRADE_KINDS),
            "deck_evidence": _ints16(c.deck_evidence, PC_DECKS),
            "deck_useless": _ints16(c.deck_useless, PC_DECKS),
            "loyalty_actions": _ints(c.loyalty_actions, c.n_loyalty),
            "loyalty_mask": c.loyalty_mask,
            "reveal_donuts": c.reveal_donuts,
            "murderer_turn": c.murderer_turn,
            "fail_turn": c.fail_turn,
            "crime_fail": c.crime_fail,
            "donuts": c.donuts,
            "stand_in": bool(c.stand_in),
            "players": c.players,
            "dirty_cops": c.dirty_cops,
            "picks": c.picks,
            "cards_dealt": c.cards_dealt,
            "punks": c.punks,
            "start_turn": c.start_turn,
            "patrol_officers": c.patrol_officers,
            "start_donuts": c.start_donuts,
            "support_vehicles": c.support_vehicles,
            "support_speed": c.support_speed,
            "events_at_start": c.events_at_start,
            "n_streets": c.n_streets,
            "n_intersections": c.n_intersections,
            "n_buildings": c.n_buildings,
            "station_building": c.station_building,
            "station_street": c.station_street,
            "hospital_building": c.hospital_building,
            "hospital_street": c.hospital_street,
            "city_hall_building": c.city_hall_building,
            "city_hall_street": c.city_hall_street,
            "west_calhoun": c.west_calhoun,
            "escape_building": _ints(c.escape_building, PC_ESCAPE),
            "escape_street": _ints(c.escape_street, PC_ESCAPE),
            "apartments": _ints(c.apartments, PC_BLOCKS),
            "warehouses": _ints(c.warehouses, PC_BLOCKS),
            "deck_building": _ints(c.deck_building, PC_DECKS),
            "deck_roll": _ints(c.deck_roll, PC_DECKS),
        }

    def names(self):
        """The names behind the ids, for debugging: characters, police and event cards by kind,
        buildings, streets and intersections by id, gang markers by index."""
        content = self.game.content
        city = self.game.city
        return {"characters": tuple(ch.name for ch in content.characters),
                "police": tuple(p.name for p in content.police),
                "events": tuple(e.name for e in content.events),
                "gangs": tuple(content.gangs),
                "buildings": tuple(city.buildings), "streets": tuple(city.streets),
                "intersections": tuple(city.intersections)}

    def has(self, int ch, int power):
        """pc_has for Python (tests): character ``ch`` has the POW_* bit ``power``."""
        if not 0 <= ch < self.c.n_characters:
            raise BadStateError(f"precinct kernel content: no character {ch}")
        return bool(pc_has(&self.c, ch, power))
