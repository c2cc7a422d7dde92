# The Police Precinct state as a flat C struct (solver/_ext/precinct_state.pxd, whose header holds
# the inventory of fields, task kinds and ctx keys, and the bounds). Twin: solver/games/precinct/
# state.py. This module only converts: PrecinctCState.from_state reads a PrecinctState into a PState
# (BadStateError when a bound is exceeded or a value has a shape the rules never make), to_core()
# writes it back as a canonical plain dict, copy() clones it with one memcpy. The rules come later.
"""The Police Precinct state in one C struct: exact conversions from and to the Python state."""

from libc.string cimport memcpy, memset

from solver.core.errors import BadStateError
from solver.games.precinct import codec as _codec
from solver.games.precinct import content as _content
from solver.games.precinct import rules as _rules  # imported to register every task kind
from solver.games.precinct import tasks as _tasks

# --- the tables of names (index = the code in the .pxd enums) -------------------------------------

#: task names by TaskKind (index 0: no task)
TASK_NAMES = (
    "",
    "car", "start", "move", "support", "discard", "action", "claim", "officers", "swat", "donuts",
    "help", "fed", "second", "reward", "deck", "order", "upgrade", "donate", "hood", "dispatch",
    "tow", "target", "event_look", "van",
    "pick", "sabotage", "loyalty",
    "deal_loyalty", "setup_punk", "stack_block", "deal_police", "setup_emergency", "event_draw",
    "peek_event", "place_roll", "punk_roll", "special_roll", "gang", "gas", "drive", "inv_draw",
    "look", "arrest_roll", "em_roll", "unknown",
    "setup_deal", "first_turn", "turn_start", "after_move", "police_phase", "hand_limit", "end_turn",
    "event_phase", "resolve", "gas_fixed", "escape", "inv_done", "take_reward", "accused",
)
DISCARD_REASONS = ("limit", "hospital", "gas")
LOOK_WHYS = ("look2", "insider", "fresh")
HOOD_WHYS = ("outreach", "incite", "officer")
ROLLED_LOCATIONS = ("apartment", "warehouse", "hood")
SPECIAL_ROLLS = ("riot", "down", "theft")
CTX_KINDS = ("", "investigate", "arrest", "escapees", "emergency", "officer_down", "accuse")

# Per task kind, its args: "i" an int, "D" a deck name, "R" a discard reason, "W" a look reason,
# "H" a hood reason, "L" a rolled location, "S" a special roll, "P" a tuple of reward indices.
_ARGS = {
    "car": "i", "start": "i", "move": "i", "support": "ii", "discard": "iR", "action": "i",
    "claim": "i", "officers": "i", "swat": "i", "donuts": "i", "help": "i", "fed": "iP",
    "second": "i", "reward": "iP", "deck": "iW", "order": "iiiW", "upgrade": "i", "donate": "i",
    "hood": "iH", "dispatch": "i", "tow": "i", "target": "i", "event_look": "i", "van": "iii",
    "pick": "i", "sabotage": "i", "loyalty": "i",
    "deal_loyalty": "i", "setup_punk": "", "stack_block": "D", "deal_police": "ii",
    "setup_emergency": "", "event_draw": "i", "peek_event": "i", "place_roll": "iLi", "punk_roll": "i",
    "special_roll": "iS", "gang": "i", "gas": "i", "drive": "i", "inv_draw": "i", "look": "iiiW",
    "arrest_roll": "i", "em_roll": "i", "unknown": "i",
    "setup_deal": "", "first_turn": "", "turn_start": "ii", "after_move": "i", "police_phase": "i",
    "hand_limit": "i", "end_turn": "i", "event_phase": "i", "resolve": "iii", "gas_fixed": "ii",
    "escape": "i", "inv_done": "i", "take_reward": "ii", "accused": "i",
}
_STRINGS = {"D": _content.DECKS, "R": DISCARD_REASONS, "W": LOOK_WHYS, "H": HOOD_WHYS,
            "L": ROLLED_LOCATIONS, "S": SPECIAL_ROLLS}
_CODES = {k: {name: i for i, name in enumerate(names)} for k, names in _STRINGS.items()}
_TASK_CODE = {name: i for i, name in enumerate(TASK_NAMES) if name}
_ARG_SPEC = tuple(_ARGS.get(name, "") for name in TASK_NAMES)
_CTX_CODE = {name: i for i, name in enumerate(CTX_KINDS) if name}
_ROLL_KEYS = {
    CTX_INVESTIGATE: frozenset({"kind", "cop", "deck", "n", "sym"}),
    CTX_ARREST: frozenset({"kind", "cop", "hood", "murderer", "n", "sym", "lookouts"}),
    CTX_ESCAPEES: frozenset({"kind", "cop", "slot", "sym", "n"}),
    CTX_EMERGENCY: frozenset({"kind", "cop", "slot", "n", "sym"}),
    CTX_OFFICER_DOWN: frozenset({"kind", "cop", "slot", "n", "sym"}),
}
_ACCUSE_KEYS = frozenset({"kind", "cop", "target", "donors"})
_DRAW_KEYS = frozenset({"size", "evidence_before", "cards"})
_REWARD_BITS = 3
_MAX_REWARDS = 4

#: every bound of the layout, by its .pxd name
BOUNDS = {
    "PS_MAX_SEATS": PS_MAX_SEATS, "PS_MAX_COPS": PS_MAX_COPS, "PS_MAX_SUPPORT": PS_MAX_SUPPORT,
    "PS_MAX_HAND": PS_MAX_HAND, "PS_MAX_UPGRADES": PS_MAX_UPGRADES, "PS_MAX_SLOTS": PS_MAX_SLOTS,
    "PS_MAX_POLICE_KINDS": PS_MAX_POLICE_KINDS, "PS_MAX_EVENT_KINDS": PS_MAX_EVENT_KINDS,
    "PS_UNKNOWN_KINDS": PS_UNKNOWN_KINDS, "PS_UPGRADE_KINDS": PS_UPGRADE_KINDS, "PS_DECKS": PS_DECKS,
    "PS_HOODS": PS_HOODS, "PS_MAX_GANGS": PS_MAX_GANGS, "PS_MAX_KNOWN": PS_MAX_KNOWN,
    "PS_MAX_EVENT_TOP": PS_MAX_EVENT_TOP, "PS_MAX_EVENT_BOTTOM": PS_MAX_EVENT_BOTTOM,
    "PS_MAX_CARDS": PS_MAX_CARDS, "PS_MAX_TODO": PS_MAX_TODO, "PS_MAX_DONORS": PS_MAX_DONORS,
}
#: bytes in one PState (what copy() moves)
STATE_BYTES = sizeof(PState)


def _check_tables():
    """The tables here must match the rules' registry and constants; drift is an import error."""
    registered = set(_tasks.DECISIONS) | set(_tasks.CHANCES) | set(_tasks.AUTOS)
    if set(_TASK_CODE) != registered or len(TASK_NAMES) != T_COUNT or set(_ARGS) != registered:
        raise ImportError("solver._ext.precinct_state: the task kinds disagree with solver.games.precinct")
    for name, code in _TASK_CODE.items():
        if code < T_FIRST_SEAT_DECISION:
            ok = name in _tasks.DECISIONS and _tasks.DECISIONS[name][0] == "cop"
        elif code < T_FIRST_CHANCE:
            ok = name in _tasks.DECISIONS and _tasks.DECISIONS[name][0] == "seat"
        elif code < T_FIRST_AUTO:
            ok = name in _tasks.CHANCES
        else:
            ok = name in _tasks.AUTOS
        if not ok:
            raise ImportError(f"solver._ext.precinct_state: task {name!r} is in the wrong range")
    fixed = ((_codec.MAX_SLOTS, PS_MAX_SLOTS), (_codec.MAX_SEATS, PS_MAX_SEATS),
             (_codec.MAX_POLICE_KINDS, PS_MAX_POLICE_KINDS), (_codec.MAX_EVENT_KINDS, PS_MAX_EVENT_KINDS),
             (len(_content.UNKNOWN), PS_UNKNOWN_KINDS), (len(_content.UPGRADES), PS_UPGRADE_KINDS),
             (len(_content.DECKS), PS_DECKS), (len(_content.GANGS) * 4, PS_MAX_GANGS),
             (len(_content.REWARDS), 5))
    if any(a != b for a, b in fixed) or tuple(_content.ROLLED_LOCATIONS) != ROLLED_LOCATIONS:
        raise ImportError("solver._ext.precinct_state: bounds disagree with solver.games.precinct")


_check_tables()

_NAMES = {}  # id(city) -> (city, building names, name -> index)


def _buildings(city):
    got = _NAMES.get(id(city))
    if got is None or got[0] is not city:
        if len(_NAMES) >= 16:
            _NAMES.clear()
        names = tuple(city.buildings)
        got = _NAMES[id(city)] = (city, names, {n: i for i, n in enumerate(names)})
    return got


# --- checked reads --------------------------------------------------------------------------------

cdef int _int(object v, int lo, int hi, str what) except? -99999:
    if type(v) is not int:
        raise BadStateError(f"precinct kernel state: {what} is {v!r}, not an int")
    if not lo <= v <= hi:
        raise BadStateError(f"precinct kernel state: {what} = {v} is outside {lo}..{hi}")
    return <int>v


cdef uint8_t _bool(object v, str what) except 255:
    if type(v) is not bool:
        raise BadStateError(f"precinct kernel state: {what} is {v!r}, not a bool")
    return 1 if v else 0


cdef int _len(object seq, int most, str what) except -1:
    cdef Py_ssize_t n = len(seq)
    if n > most:
        raise BadStateError(f"precinct kernel state: {what} holds {n} entries; the layout holds "
                            f"at most {most}")
    return <int>n


cdef uint8_t _seats(object seats, str what) except? 255:
    cdef int m = 0
    for p in seats:
        m |= 1 << _int(p, 0, PS_MAX_SEATS - 1, what)
    return <uint8_t>m


cdef int _ints16(int16_t* out, object seq, int most, int lo, int hi, str what) except -1:
    cdef int i, n = _len(seq, most, what)
    for i in range(n):
        out[i] = <int16_t>_int(seq[i], lo, hi, what)
    return n


cdef int _ints8(int8_t* out, object seq, int most, int lo, int hi, str what) except -1:
    cdef int i, n = _len(seq, most, what)
    for i in range(n):
        out[i] = <int8_t>_int(seq[i], lo, hi, what)
    return n


cdef tuple _seat_tuple(uint8_t m):
    return tuple([p for p in range(PS_MAX_SEATS) if m >> p & 1])


cdef list _bits_list(uint8_t m, int n):
    return [bool(m >> i & 1) for i in range(n)]


cdef int _building(object name, dict index, str what) except -2:
    if name == "":
        return -1
    if type(name) is not str or name not in index:
        raise BadStateError(f"precinct kernel state: {what} {name!r} is not a building of the city")
    return index[name]


# --- tasks ----------------------------------------------------------------------------------------

cdef int _encode_task(PTask* t, object task) except -1:
    if type(task) is not tuple or not task:
        raise BadStateError(f"precinct kernel state: task {task!r} is not a non-empty tuple")
    code = _TASK_CODE.get(task[0])
    if code is None:
        raise BadStateError(f"precinct kernel state: unknown task kind {task[0]!r}")
    spec = _ARG_SPEC[code]
    if len(task) - 1 != len(spec):
        raise BadStateError(f"precinct kernel state: task {task!r} should have {len(spec)} args")
    t.kind = code
    t.nargs = len(spec)
    cdef int i, j, packed
    for i in range(PS_TASK_ARGS):
        t.args[i] = 0
    for i in range(len(spec)):
        a = task[i + 1]
        c = spec[i]
        if c == "i":
            t.args[i] = <int16_t>_int(a, -32767, 32767, f"task {task[0]} arg {i + 1}")
        elif c == "P":
            if type(a) is not tuple or len(a) > _MAX_REWARDS:
                raise BadStateError(f"precinct kernel state: task {task!r}: the rewards must be a tuple "
                                    f"of at most {_MAX_REWARDS}")
            packed = len(a)
            for j in range(len(a)):
                packed |= _int(a[j], 0, (1 << _REWARD_BITS) - 1, f"task {task[0]} reward") \
                    << (_REWARD_BITS * (j + 1))
            t.args[i] = <int16_t>packed
        else:
            got = _CODES[c].get(a) if type(a) is str else None
            if got is None:
                raise BadStateError(f"precinct kernel state: task {task!r}: arg {a!r} is not one of "
                                    f"{_STRINGS[c]}")
            t.args[i] = <int16_t>got
    return 0


cdef tuple _decode_task(const PTask* t):
    spec = _ARG_SPEC[t.kind]
    out = [TASK_NAMES[t.kind]]
    cdef int i, j, v
    for i in range(t.nargs):
        v = t.args[i]
        c = spec[i]
        if c == "i":
            out.append(v)
        elif c == "P":
            out.append(tuple([(v >> (_REWARD_BITS * (j + 1))) & ((1 << _REWARD_BITS) - 1)
                              for j in range(v & ((1 << _REWARD_BITS) - 1))]))
        else:
            out.append(_STRINGS[c][v])
    return tuple(out)


# --- ctx ------------------------------------------------------------------------------------------

cdef int _encode_ctx(PCtx* x, dict ctx) except -1:
    memset(x, 0, sizeof(PCtx))
    if not ctx:
        return 0
    kind = _CTX_CODE.get(ctx.get("kind"))
    if kind is None:
        raise BadStateError(f"precinct kernel state: ctx kind {ctx.get('kind')!r} is unknown")
    x.kind = kind
    keys = frozenset(ctx)
    x.cop = <int8_t>_int(ctx.get("cop"), 0, PS_MAX_COPS - 1, "ctx cop")
    cdef int i, n
    cdef uint64_t bits = 0
    if kind == CTX_ACCUSE:
        if keys != _ACCUSE_KEYS:
            raise BadStateError(f"precinct kernel state: accuse ctx keys {sorted(keys)}")
        x.target = <int8_t>_int(ctx["target"], 0, PS_MAX_SEATS - 1, "ctx target")
        donors = ctx["donors"]
        if type(donors) is not list:
            raise BadStateError("precinct kernel state: ctx donors is not a list")
        n = _len(donors, PS_MAX_DONORS, "ctx donors")
        for i in range(n):
            d = donors[i]
            if type(d) is not tuple or len(d) != 2:
                raise BadStateError(f"precinct kernel state: ctx donor {d!r} is not (cop, donuts)")
            x.donor_cop[i] = <int8_t>_int(d[0], 0, PS_MAX_COPS - 1, "ctx donor cop")
            x.donor_k[i] = <int16_t>_int(d[1], 0, 32767, "ctx donor donuts")
        x.n_donors = n
        return 0
    base = _ROLL_KEYS[kind]
    rest = keys - base
    if not base <= keys:
        raise BadStateError(f"precinct kernel state: {ctx['kind']} ctx lacks {sorted(base - keys)}")
    x.n = <int16_t>_int(ctx["n"], -32767, 32767, "ctx n")
    x.sym = <int16_t>_int(ctx["sym"], -32767, 32767, "ctx sym")
    if "sabotage" in rest:
        x.has_sabotage = 1
        x.sabotage = <int16_t>_int(ctx["sabotage"], -32767, 32767, "ctx sabotage")
        rest = rest - {"sabotage"}
    if kind == CTX_INVESTIGATE:
        x.deck = <int8_t>_int(ctx["deck"], 0, PS_DECKS - 1, "ctx deck")
        if "hide" in rest:
            x.has_hide = 1
            x.hide = _bool(ctx["hide"], "ctx hide")
            rest = rest - {"hide"}
        if rest & _DRAW_KEYS:
            if not _DRAW_KEYS <= rest:
                raise BadStateError(f"precinct kernel state: investigate ctx has only part of "
                                    f"{sorted(_DRAW_KEYS)}")
            x.has_draw = 1
            x.size = <int16_t>_int(ctx["size"], 0, 32767, "ctx size")
            x.evidence_before = <int16_t>_int(ctx["evidence_before"], 0, 32767, "ctx evidence_before")
            cards = ctx["cards"]
            if type(cards) is not list:
                raise BadStateError("precinct kernel state: ctx cards is not a list")
            n = _len(cards, PS_MAX_CARDS, "ctx cards")
            for i in range(n):
                if _bool(cards[i], "ctx card"):
                    bits |= (<uint64_t>1) << i
            x.n_cards = n
            x.cards = bits
            rest = rest - _DRAW_KEYS
    elif kind == CTX_ARREST:
        x.hood = <int8_t>_int(ctx["hood"], 1, PS_HOODS, "ctx hood")
        x.murderer = _bool(ctx["murderer"], "ctx murderer")
        x.lookouts = _bool(ctx["lookouts"], "ctx lookouts")
    else:
        x.slot = <int8_t>_int(ctx["slot"], 0, PS_MAX_SLOTS - 1, "ctx slot")
    if rest:
        raise BadStateError(f"precinct kernel state: {ctx['kind']} ctx has unexpected keys {sorted(rest)}")
    return 0


cdef dict _decode_ctx(const PCtx* x):
    if x.kind == CTX_NONE:
        return {}
    out = {"kind": CTX_KINDS[x.kind], "cop": x.cop}
    if x.kind == CTX_ACCUSE:
        out["target"] = x.target
        out["donors"] = [(x.donor_cop[i], x.donor_k[i]) for i in range(x.n_donors)]
        return out
    out["n"] = x.n
    out["sym"] = x.sym
    if x.has_sabotage:
        out["sabotage"] = x.sabotage
    if x.kind == CTX_INVESTIGATE:
        out["deck"] = x.deck
        if x.has_draw:
            out["size"] = x.size
            out["evidence_before"] = x.evidence_before
            out["cards"] = [bool(x.cards >> i & 1) for i in range(x.n_cards)]
        if x.has_hide:
            out["hide"] = bool(x.hide)
    elif x.kind == CTX_ARREST:
        out["hood"] = x.hood
        out["murderer"] = bool(x.murderer)
        out["lookouts"] = bool(x.lookouts)
    else:
        out["slot"] = x.slot
    return out


# --- pieces ---------------------------------------------------------------------------------------

cdef int _encode_cop(PCop* c, object cop) except -1:
    cdef int i, n
    c.seat = <int8_t>_int(cop.seat, 0, PS_MAX_SEATS - 1, "cop seat")
    c.chr = <int8_t>_int(cop.char, 0, 127, "cop char")
    c.street = <int8_t>_int(cop.street, 0, 127, "cop street")
    c.marked = _bool(cop.marked, "cop marked")
    c.donuts = <int16_t>_int(cop.donuts, -32767, 32767, "cop donuts")
    c.swat = <int16_t>_int(cop.swat, -32767, 32767, "cop swat")
    c.fed = <int16_t>_int(cop.fed, -32767, 32767, "cop fed")
    c.arrests = <int16_t>_int(cop.arrests, -32767, 32767, "cop arrests")
    c.extra_move = <int16_t>_int(cop.extra_move, -32767, 32767, "cop extra_move")
    c.empty = <int16_t>_int(cop.empty, -32767, 32767, "cop empty")
    c.out = _bool(cop.out, "cop out")
    c.hospital = _bool(cop.hospital, "cop hospital")
    c.skip_event = _bool(cop.skip_event, "cop skip_event")
    c.switched = _bool(cop.switched, "cop switched")
    c.no_draw = _bool(cop.no_draw, "cop no_draw")
    c.rewarded = _bool(cop.rewarded, "cop rewarded")
    hand, fresh = cop.hand, cop.fresh
    n = _len(hand, PS_MAX_HAND, "a cop's hand")
    if len(fresh) != n:
        raise BadStateError(f"precinct kernel state: a hand of {n} cards has {len(fresh)} fresh flags")
    for i in range(n):
        c.hand[i] = <uint8_t>_int(hand[i], 0, PS_MAX_POLICE_KINDS - 1, "a hand card")
        c.fresh[i] = _bool(fresh[i], "a fresh flag")
    c.n_hand = n
    ups = cop.upgrades
    n = _len(ups, PS_MAX_UPGRADES, "a cop's upgrades")
    for i in range(n):
        c.upgrades[i] = <uint8_t>_int(ups[i], 0, PS_UPGRADE_KINDS - 1, "an upgrade")
    c.n_upgrades = n
    return 0


cdef dict _decode_cop(const PCop* c):
    return {
        "seat": c.seat, "char": c.chr, "street": c.street, "marked": bool(c.marked),
        "donuts": c.donuts, "hand": [c.hand[i] for i in range(c.n_hand)],
        "fresh": [bool(c.fresh[i]) for i in range(c.n_hand)],
        "upgrades": [c.upgrades[i] for i in range(c.n_upgrades)], "swat": c.swat, "fed": c.fed,
        "out": bool(c.out), "hospital": bool(c.hospital), "skip_event": bool(c.skip_event),
        "arrests": c.arrests, "switched": bool(c.switched), "extra_move": c.extra_move,
        "no_draw": bool(c.no_draw), "rewarded": bool(c.rewarded), "empty": c.empty,
    }


cdef int _encode_slot(PSlot* s, object slot, dict index) except -1:
    s.full = 1
    s.card = <int8_t>_int(slot.card, 0, PS_MAX_EVENT_KINDS - 1, "slot card")
    s.at = <int8_t>_int(slot.at, 0, 3, "slot at")
    s.where = <int8_t>_int(slot.where, 0, 127, "slot where")
    s.building = <int8_t>_building(slot.building, index, "slot building")
    s.unknown = <int8_t>_int(slot.unknown, -2, PS_UNKNOWN_KINDS - 1, "slot unknown")
    s.serial = <int16_t>_int(slot.serial, -32767, 32767, "slot serial")
    s.data = <int16_t>_int(slot.data, -32767, 32767, "slot data")
    return 0


cdef int _encode_known(uint8_t* kinds, uint8_t* know, object seq, str what) except -1:
    cdef int i, n = _len(seq, PS_MAX_KNOWN, what)
    for i in range(n):
        entry = seq[i]
        if type(entry) is not tuple or len(entry) != 2:
            raise BadStateError(f"precinct kernel state: {what} entry {entry!r} is not (kind, seats)")
        kinds[i] = _bool(entry[0], what)
        know[i] = _seats(entry[1], what)
    return n


cdef int _encode_stack(PStack* s, object stack, dict index) except -1:
    s.building = <int8_t>_building(stack.building, index, "stack building")
    s.gone = _bool(stack.gone, "stack gone")
    s.evidence = <int16_t>_int(stack.evidence, -32767, 32767, "stack evidence")
    s.useless = <int16_t>_int(stack.useless, -32767, 32767, "stack useless")
    s.n_top = _encode_known(s.top_kind, s.top_know, stack.top, "a stack's known top")
    s.n_bottom = _encode_known(s.bottom_kind, s.bottom_know, stack.bottom, "a stack's known bottom")
    return 0


cdef int _encode_events(PEventKnown* out, object seq, int most, str what) except -1:
    cdef int i, n = _len(seq, most, what)
    for i in range(n):
        entry = seq[i]
        if type(entry) is not tuple or len(entry) != 2:
            raise BadStateError(f"precinct kernel state: {what} entry {entry!r} is not (kind, seats)")
        out[i].kind = <uint8_t>_int(entry[0], 0, PS_MAX_EVENT_KINDS - 1, what)
        out[i].know = _seats(entry[1], what)
    return n


cdef uint8_t _flags(object seq, int n, str what) except? 255:
    if len(seq) != n:
        raise BadStateError(f"precinct kernel state: {what} has {len(seq)} entries, not {n}")
    cdef int i, m = 0
    for i in range(n):
        if _bool(seq[i], what):
            m |= 1 << i
    return <uint8_t>m


cdef int _counts(int16_t* out, object seq, int n, str what) except -1:
    if len(seq) != n:
        raise BadStateError(f"precinct kernel state: {what} has {len(seq)} entries, not {n}")
    _ints16(out, seq, n, -32767, 32767, what)
    return 0


cdef int _encode_state(PState* s, object st, dict index) except -1:
    cdef int i, n
    memset(s, 0, sizeof(PState))
    game = st.game
    c = game.content
    n = _int(st.n, 1, PS_MAX_SEATS, "n")
    s.n = n
    s.n_police_kinds = _len(c.police, PS_MAX_POLICE_KINDS, "the police kinds")
    s.n_event_kinds = _len(c.events, PS_MAX_EVENT_KINDS, "the event kinds")
    cops = st.cops
    s.n_cops = _len(cops, PS_MAX_COPS, "cops")
    for i in range(s.n_cops):
        _encode_cop(&s.cops[i], cops[i])
    s.n_order = _ints8(s.order, st.order, PS_MAX_COPS, 0, PS_MAX_COPS - 1, "order")
    s.at = <int8_t>_int(st.at, 0, PS_MAX_COPS - 1, "at")
    s.n_support = _ints8(s.support, st.support, PS_MAX_SUPPORT, 0, 127, "support vehicles")
    s.loyalty = _flags(st.loyalty, n, "loyalty")
    s.dealt = <int8_t>_int(st.dealt, 0, PS_MAX_SEATS, "dealt")
    s.revealed = _flags(st.revealed, n, "revealed")
    s.underground = _flags(st.underground, n, "underground")
    if len(st.peeks) != n:
        raise BadStateError(f"precinct kernel state: peeks has {len(st.peeks)} entries, not {n}")
    for i in range(n):
        s.peeks[i] = _seats(st.peeks[i], "peeks")
    if len(st.punks) != PS_HOODS or len(st.gangs) != PS_HOODS or len(st.patrol) != PS_HOODS:
        raise BadStateError("precinct kernel state: punks, gangs and patrol must have 6 entries")
    _ints8(s.punks, st.punks, PS_HOODS, -128, 127, "punks")
    _ints8(s.gangs, st.gangs, PS_HOODS, -1, PS_MAX_GANGS - 1, "gangs")
    _ints8(s.patrol, st.patrol, PS_HOODS, -128, 127, "patrol")
    s.n_gang_pool = _ints8(s.gang_pool, st.gang_pool, PS_MAX_GANGS, 0, PS_MAX_GANGS - 1, "gang pool")
    s.punk_supply = <int16_t>_int(st.punk_supply, -32767, 32767, "punk_supply")
    s.patrol_stock = <int16_t>_int(st.patrol_stock, -32767, 32767, "patrol_stock")
    s.murderer = <int8_t>_int(st.murderer, 0, PS_HOODS, "murderer")
    if len(st.slots) != PS_MAX_SLOTS:
        raise BadStateError(f"precinct kernel state: {len(st.slots)} board slots, not {PS_MAX_SLOTS}")
    for i in range(PS_MAX_SLOTS):
        if st.slots[i] is not None:
            _encode_slot(&s.slots[i], st.slots[i], index)
    s.serial = <int16_t>_int(st.serial, -32767, 32767, "serial")
    s.urgent = <int8_t>_int(st.urgent, -1, PS_MAX_SLOTS - 1, "urgent")
    if len(st.stacks) != PS_DECKS:
        raise BadStateError(f"precinct kernel state: {len(st.stacks)} stacks, not {PS_DECKS}")
    for i in range(PS_DECKS):
        _encode_stack(&s.stacks[i], st.stacks[i], index)
    _counts(s.placed, st.placed, PS_DECKS, "placed")
    _counts(s.police, st.police, s.n_police_kinds, "police")
    _counts(s.police_discard, st.police_discard, s.n_police_kinds, "police_discard")
    _counts(s.events_left, st.events_left, s.n_event_kinds, "events_left")
    _counts(s.event_discard, st.event_discard, s.n_event_kinds, "event_discard")
    s.n_event_top = _encode_events(s.event_top, st.event_top, PS_MAX_EVENT_TOP, "event_top")
    s.n_event_bottom = _encode_events(s.event_bottom, st.event_bottom, PS_MAX_EVENT_BOTTOM, "event_bottom")
    _counts(s.unknown, st.unknown, PS_UNKNOWN_KINDS, "unknown")
    _counts(s.unknown_discard, st.unknown_discard, PS_UNKNOWN_KINDS, "unknown_discard")
    s.unknown_unseen = <int16_t>_int(st.unknown_unseen, -32767, 32767, "unknown_unseen")
    _counts(s.upgrades_left, st.upgrades_left, PS_UPGRADE_KINDS, "upgrades_left")
    s.donut_supply = <int16_t>_int(st.donut_supply, -32767, 32767, "donut_supply")
    s.turn_track = <int16_t>_int(st.turn_track, -32767, 32767, "turn_track")
    s.crime = <int16_t>_int(st.crime, -32767, 32767, "crime")
    s.turns = _int(st.turns, 0, 2147483647, "turns")
    s.result = <int8_t>_int(st.result, -1, 1, "result")
    if type(st.ctx) is not dict:
        raise BadStateError("precinct kernel state: ctx is not a dict")
    _encode_ctx(&s.ctx, st.ctx)
    todo = st.todo
    n = _len(todo, PS_MAX_TODO, "the task queue")
    for i in range(n):
        _encode_task(&s.todo[n - 1 - i], todo[i])  # reversed: the head last
    s.todo_len = n
    return 0


cdef class PrecinctCState:
    """One Police Precinct state in a C struct (``PState``), converted exactly from and to Python."""

    def __init__(self, *args, **kwargs):
        raise TypeError("build a PrecinctCState with PrecinctCState.from_state(state)")

    @staticmethod
    def from_state(st):
        """The C state of PrecinctState ``st``; BadStateError when it exceeds a bound of the layout
        or holds a value of a shape the rules never make (a new task kind, a str for an int)."""
        cdef PrecinctCState out = PrecinctCState.__new__(PrecinctCState)
        _, names, index = _buildings(st.game.city)
        _encode_state(&out.s, st, index)
        out.game = st.game
        out.building_names = names
        return out

    def copy(self):
        """An independent copy: one memcpy of the struct (what a search does to clone a world)."""
        cdef PrecinctCState out = PrecinctCState.__new__(PrecinctCState)
        memcpy(&out.s, &self.s, sizeof(PState))
        out.game = self.game
        out.building_names = self.building_names
        return out

    @property
    def todo_len(self):
        """Tasks in the queue."""
        return self.s.todo_len

    def to_core(self):
        """Every game-relevant field as plain Python, named as in PrecinctState: ints and bools in
        lists, cops/slots/stacks as dicts of their dataclass fields, seat sets as sorted tuples
        (peeks as a list of them), building names as strings, tasks as their original tuples, ctx
        as the original dict."""
        cdef PState* s = &self.s
        cdef PSlot* sl
        cdef PStack* sk
        cdef int i, j
        names = self.building_names
        slots = []
        for i in range(PS_MAX_SLOTS):
            if not s.slots[i].full:
                slots.append(None)
                continue
            sl = &s.slots[i]
            slots.append({"card": sl.card, "at": sl.at, "where": sl.where,
                          "building": names[sl.building] if sl.building >= 0 else "",
                          "unknown": sl.unknown, "serial": sl.serial, "data": sl.data})
        stacks = []
        for i in range(PS_DECKS):
            sk = &s.stacks[i]
            stacks.append({
                "building": names[sk.building] if sk.building >= 0 else "",
                "evidence": sk.evidence, "useless": sk.useless,
                "top": [(bool(sk.top_kind[j]), _seat_tuple(sk.top_know[j])) for j in range(sk.n_top)],
                "bottom": [(bool(sk.bottom_kind[j]), _seat_tuple(sk.bottom_know[j]))
                           for j in range(sk.n_bottom)],
                "gone": bool(sk.gone),
            })
        return {
            "n": s.n,
            "cops": [_decode_cop(&s.cops[i]) for i in range(s.n_cops)],
            "order": [s.order[i] for i in range(s.n_order)],
            "at": s.at,
            "support": [s.support[i] for i in range(s.n_support)],
            "loyalty": _bits_list(s.loyalty, s.n),
            "dealt": s.dealt,
            "revealed": _bits_list(s.revealed, s.n),
            "underground": _bits_list(s.underground, s.n),
            "peeks": [_seat_tuple(s.peeks[i]) for i in range(s.n)],
            "punks": [s.punks[i] for i in range(PS_HOODS)],
            "punk_supply": s.punk_supply,
            "gangs": [s.gangs[i] for i in range(PS_HOODS)],
            "gang_pool": [s.gang_pool[i] for i in range(s.n_gang_pool)],
            "patrol": [s.patrol[i] for i in range(PS_HOODS)],
            "patrol_stock": s.patrol_stock,
            "murderer": s.murderer,
            "slots": slots,
            "serial": s.serial,
            "urgent": s.urgent,
            "stacks": stacks,
            "placed": [s.placed[i] for i in range(PS_DECKS)],
            "police": [s.police[i] for i in range(s.n_police_kinds)],
            "police_discard": [s.police_discard[i] for i in range(s.n_police_kinds)],
            "events_left": [s.events_left[i] for i in range(s.n_event_kinds)],
            "event_top": [(s.event_top[i].kind, _seat_tuple(s.event_top[i].know))
                          for i in range(s.n_event_top)],
            "event_bottom": [(s.event_bottom[i].kind, _seat_tuple(s.event_bottom[i].know))
                             for i in range(s.n_event_bottom)],
            "event_discard": [s.event_discard[i] for i in range(s.n_event_kinds)],
            "unknown": [s.unknown[i] for i in range(PS_UNKNOWN_KINDS)],
            "unknown_discard": [s.unknown_discard[i] for i in range(PS_UNKNOWN_KINDS)],
            "unknown_unseen": s.unknown_unseen,
            "upgrades_left": [s.upgrades_left[i] for i in range(PS_UPGRADE_KINDS)],
            "donut_supply": s.donut_supply,
            "turn_track": s.turn_track,
            "crime": s.crime,
            "turns": s.turns,
            "result": s.result,
            "ctx": _decode_ctx(&s.ctx),
            "todo": [_decode_task(&s.todo[s.todo_len - 1 - i]) for i in range(s.todo_len)],
        }
