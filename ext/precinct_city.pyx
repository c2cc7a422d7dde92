# Compiled twin of solver/games/precinct/city.py (City): the map as the flat CityC struct of
# solver/_ext/precinct_city.pxd and its searches as nogil C functions, for the Precinct simulator.
# Built from a Python City (the shipped map or a user's file), never from the JSON itself, so the
# loader's checks stay in one place; the tables are derived here again from the streets' ends (not
# copied from City's own tables) so that tests/test_precinct_kernel_city.py compares two derivations.
"""The Police Precinct city for the compiled simulator (pure twin: solver.games.precinct.city)."""

from libc.stdint cimport uint64_t

from solver._ext.precinct_codec cimport *

from solver.core.errors import BadStateError


def codec_constants():
    """Every constant of solver/_ext/precinct_codec.pxd -> its C value, and each block start -> its
    size (``{"names": {...}, "sizes": {start: size}}``): the test compares them with codec.py."""
    cdef dict names = {
        "PROCEED": PROCEED, "YES": YES, "MARKED": MARKED, "UNMARKED": UNMARKED,
        "DRAW_ACTION": DRAW_ACTION, "ARREST": ARREST, "ARREST_MURDERER": ARREST_MURDERER,
        "REVEAL": REVEAL, "PLACE": PLACE, "HIDE": HIDE, "KEEP": KEEP, "BOTTOM": BOTTOM,
        "EV_FIRST": EV_FIRST, "EV_LAST": EV_LAST, "SHUFFLE": SHUFFLE, "NO_ACTION": NO_ACTION,
        "PICK": PICK, "MOVE": MOVE, "SUPPORT": SUPPORT, "PLAY": PLAY, "HELP": HELP,
        "DISCARD": DISCARD, "INVESTIGATE": INVESTIGATE, "HANDLE": HANDLE, "UPGRADE": UPGRADE,
        "ACCUSE": ACCUSE, "DONUTS": DONUTS, "OFFICERS": OFFICERS, "SWAT": SWAT, "DONATE": DONATE,
        "SABOTAGE": SABOTAGE, "REWARD": REWARD, "DECK": DECK, "HOOD": HOOD, "LOYALTY": LOYALTY,
        "TARGET": TARGET, "DIE": DIE, "POLICE": POLICE, "EVENT": EVENT, "UNKNOWN": UNKNOWN,
        "LOYAL": LOYAL, "DIRTY": DIRTY, "FOUND": FOUND, "LOOKED": LOOKED, "SUCCESS": SUCCESS,
        "HANDLED": HANDLED, "FAILED": FAILED, "COMPASS": COMPASS, "GANG": GANG,
        "NUM_ACTIONS": NUM_ACTIONS, "MAX_CHARACTERS": MAX_CHARACTERS, "MAX_STREETS": MAX_STREETS,
        "MAX_POLICE_KINDS": MAX_POLICE_KINDS, "MAX_EVENT_KINDS": MAX_EVENT_KINDS,
        "MAX_SLOTS": MAX_SLOTS, "MAX_SEATS": MAX_SEATS, "MAX_DONUTS": MAX_DONUTS,
        "MAX_SUCCESS": MAX_SUCCESS, "MAX_FOUND": MAX_FOUND,
    }
    cdef dict sizes = {
        PICK: PICK_SIZE, MOVE: MOVE_SIZE, SUPPORT: SUPPORT_SIZE, PLAY: PLAY_SIZE, HELP: HELP_SIZE,
        DISCARD: DISCARD_SIZE, INVESTIGATE: INVESTIGATE_SIZE, HANDLE: HANDLE_SIZE,
        UPGRADE: UPGRADE_SIZE, ACCUSE: ACCUSE_SIZE, DONUTS: DONUTS_SIZE, OFFICERS: OFFICERS_SIZE,
        SWAT: SWAT_SIZE, DONATE: DONATE_SIZE, SABOTAGE: SABOTAGE_SIZE, REWARD: REWARD_SIZE,
        DECK: DECK_SIZE, HOOD: HOOD_SIZE, LOYALTY: LOYALTY_SIZE, TARGET: TARGET_SIZE, DIE: DIE_SIZE,
        POLICE: POLICE_SIZE, EVENT: EVENT_SIZE, UNKNOWN: UNKNOWN_SIZE, FOUND: FOUND_SIZE,
        LOOKED: LOOKED_SIZE, SUCCESS: SUCCESS_SIZE, COMPASS: COMPASS_SIZE, GANG: GANG_SIZE,
    }
    return {"names": names, "sizes": sizes}


cdef inline uint64_t bit(int k) noexcept nogil:
    return (<uint64_t>1) << k


cdef uint64_t city_reach(const CityC* c, int start, int steps, uint64_t blocked, uint64_t sticky,
                         int* dist_out) noexcept nogil:
    # Level by level over bit masks: the streets one move from a street are those ending at one of its
    # open intersections, the same set City._search finds through its ``via`` lists.
    cdef uint64_t reached = bit(start)
    cdef uint64_t frontier = reached
    cdef uint64_t nxt, f, e
    cdef int d = 0
    cdef int k
    if dist_out != NULL:
        for k in range(c.n_streets):
            dist_out[k] = -1
        dist_out[start] = 0
    sticky &= ~reached  # the car may always leave the street it stands on
    while d < steps:
        d += 1
        nxt = 0
        f = frontier & ~sticky
        if blocked == 0:
            while f:
                nxt |= c.nbr_mask[mask_pop(&f)]
        else:
            while f:
                e = c.end_mask[mask_pop(&f)] & ~blocked
                while e:
                    nxt |= c.at[mask_pop(&e)]
        nxt &= ~reached
        if nxt == 0:
            break
        reached |= nxt
        if dist_out != NULL:
            f = nxt
            while f:
                dist_out[mask_pop(&f)] = d
        frontier = nxt
    return reached


cdef int city_moves(const CityC* c, int start, int steps, uint64_t blocked, int* out) noexcept nogil:
    cdef uint64_t reached = city_reach(c, start, steps, blocked, 0, NULL)
    cdef int n = 0
    while reached:
        out[n] = mask_pop(&reached)
        n += 1
    return n


cdef int city_path(const CityC* c, int a, int b, uint64_t blocked, int* out) noexcept nogil:
    # City._search's queue exactly: the parent of a street is the first street, in queue order, to
    # reach it, so ties fall as they do in Python. Stops once b is found (its parent is then fixed).
    cdef int queue[CITY_MAX]
    cdef int parent[CITY_MAX]
    cdef uint64_t seen = bit(a)
    cdef int head = 0
    cdef int tail = 1
    cdef int s, t, k, n
    queue[0] = a
    while head < tail and not (seen & bit(b)):
        s = queue[head]
        head += 1
        for k in range(c.deg[s]):
            t = c.nbr[s][k]
            if not (seen & bit(t)) and (c.via[s][k] & ~blocked):
                seen |= bit(t)
                parent[t] = s
                queue[tail] = t
                tail += 1
    if not (seen & bit(b)):
        return 0
    n = 1
    t = b
    while t != a:
        t = parent[t]
        n += 1
    t = b
    for k in range(n - 1, -1, -1):
        out[k] = t
        if k:
            t = parent[t]
    return n


cdef int city_streets_at(const CityC* c, int i, int* out) noexcept nogil:
    cdef uint64_t m = c.at[i]
    cdef int n = 0
    while m:
        out[n] = mask_pop(&m)
        n += 1
    return n


cdef uint64_t _mask(object ids, int limit):
    """A set of ids as a bit mask; ids outside 0..limit-1 name nothing and are left out, as City does."""
    cdef uint64_t m = 0
    cdef long k
    for x in ids:
        k = x
        if 0 <= k < limit:
            m |= bit(<int>k)
    return m


cdef class CCity:
    """A :class:`~solver.games.precinct.city.City` as flat C arrays (the ``CityC`` struct).

    The Python methods mirror City's for the equality tests and are not meant for hot paths: kernels
    call ``city_reach`` / ``city_moves`` / ``city_path`` on ``&ccity.c``. Ids out of range raise
    IndexError, as City's tuples do.
    """

    def __init__(self, city):
        """Build the tables of ``city`` (a City); BadStateError when it does not fit 64-bit masks."""
        cdef CityC* c = &self.c
        cdef int n = len(city.streets)
        cdef int ni = len(city.intersections)
        cdef int nb = len(city.buildings)
        cdef int s, t, i, h, k, d
        cdef uint64_t shared
        cdef int dist_row[CITY_MAX]
        if not 1 <= n <= CITY_MAX or not 1 <= ni <= CITY_MAX or nb > CITY_MAX:
            raise BadStateError(
                f"precinct compiled city: {n} streets, {ni} intersections, {nb} buildings "
                f"(at most {CITY_MAX} each, one 64-bit mask)")
        if len(city.hood_streets) > CITY_HOODS:
            raise BadStateError(f"precinct compiled city: {len(city.hood_streets)} Bad Hoods "
                                f"(at most {CITY_HOODS})")
        self.city = city
        c.n_streets = n
        c.n_intersections = ni
        c.n_buildings = nb
        c.unreachable = n + 1
        for i in range(CITY_MAX):
            c.at[i] = 0
        for s in range(n):
            ends = city.ends[s]
            if not 1 <= len(ends) <= 2 or len(set(ends)) != len(ends):
                raise BadStateError(f"precinct compiled city: street {s} has ends {ends!r} "
                                    "(one or two distinct intersections)")
            c.n_ends[s] = len(ends)
            c.end_mask[s] = 0
            for k, i in enumerate(ends):
                if not 0 <= i < ni:
                    raise BadStateError(f"precinct compiled city: street {s} ends at no intersection {i}")
                c.ends[s][k] = i
                c.end_mask[s] |= bit(i)
                c.at[i] |= bit(s)
            if len(ends) == 1:
                c.ends[s][1] = -1
        for s in range(n):
            c.deg[s] = 0
            c.nbr_mask[s] = 0
            for t in range(n):
                shared = c.end_mask[s] & c.end_mask[t]
                if t != s and shared:
                    c.nbr[s][c.deg[s]] = t
                    c.via[s][c.deg[s]] = shared
                    c.deg[s] += 1
                    c.nbr_mask[s] |= bit(t)
        for s in range(n):
            city_reach(c, s, n, 0, 0, dist_row)
            for t in range(n):
                d = dist_row[t]
                c.dist[s][t] = <unsigned char>(c.unreachable if d < 0 else d)
        for s in range(CITY_MAX):
            c.hood[s] = 0
        for h in range(CITY_HOODS):
            c.hood_mask[h] = 0
            c.hood_count[h] = 0
        for h, members in enumerate(city.hood_streets):
            if len(members) > CITY_MAX:
                raise BadStateError(f"precinct compiled city: Bad Hood {h + 1} lists {len(members)} streets")
            for s in members:
                if not 0 <= s < n:
                    raise BadStateError(f"precinct compiled city: Bad Hood {h + 1} has no street {s}")
                c.hood[s] = h + 1  # a later hood wins, as in City
                c.hood_mask[h] |= bit(s)
                c.hood_streets[h][c.hood_count[h]] = s
                c.hood_count[h] += 1
        index = {}
        for k, (name, s) in enumerate(city.buildings.items()):
            if not 0 <= s < n:
                raise BadStateError(f"precinct compiled city: building {name!r} is on no street {s}")
            c.building_street[k] = s
            index[name] = k
        for what, names in (("apartments", city.apartments), ("warehouses", city.warehouses)):
            if len(names) != CITY_BLOCKS or any(b not in index for b in names):
                raise BadStateError(f"precinct compiled city: {what} {names!r} must be {CITY_BLOCKS} buildings")
        for k in range(CITY_BLOCKS):
            c.apartment[k] = index[city.apartments[k]]
            c.warehouse[k] = index[city.warehouses[k]]
        c.station_street = city.buildings.get("Police Station", -1)
        c.hospital_street = city.buildings.get("Hospital", -1)

    @property
    def n_streets(self):
        return self.c.n_streets

    @property
    def n_intersections(self):
        return self.c.n_intersections

    def _street(self, s):
        if not 0 <= s < self.c.n_streets:
            raise IndexError(f"precinct compiled city: no street {s}")
        return s

    def _intersection(self, i):
        if not 0 <= i < self.c.n_intersections:
            raise IndexError(f"precinct compiled city: no intersection {i}")
        return i

    def reach(self, start, steps, blocked=frozenset(), sticky=frozenset()):
        """City.reach as ``{street: fewest moves}`` in street id order; ``sticky`` as city_reach's."""
        cdef int dist[CITY_MAX]
        cdef int s = self._street(start)
        cdef uint64_t m = city_reach(&self.c, s, steps, _mask(blocked, self.c.n_intersections),
                                     _mask(sticky, self.c.n_streets), dist)
        out = {}
        while m:
            s = mask_pop(&m)
            out[s] = dist[s]
        return out

    def moves(self, start, steps, blocked=frozenset(), through_blocked=False):
        """The streets of City.moves in increasing id order (a list; the distances are reach's)."""
        cdef int out[CITY_MAX]
        cdef uint64_t m = 0 if through_blocked else _mask(blocked, self.c.n_intersections)
        cdef int n = city_moves(&self.c, self._street(start), steps, m, out)
        return [out[k] for k in range(n)]

    def path(self, a, b, blocked=frozenset()):
        """City.path: the same list of streets, ``[]`` when ``b`` cannot be reached."""
        cdef int out[CITY_MAX]
        cdef int n = city_path(&self.c, self._street(a), self._street(b),
                               _mask(blocked, self.c.n_intersections), out)
        return [out[k] for k in range(n)]

    def distance(self, a, b):
        """City.distance (n_streets + 1 when ``b`` cannot be reached)."""
        return city_distance(&self.c, self._street(a), self._street(b))

    def hood_of(self, street):
        """City.hood_of: 1..6, or None."""
        h = city_hood_of(&self.c, self._street(street))
        return h or None

    def streets_at(self, intersection):
        """City.streets_at: a tuple in id order."""
        cdef int out[CITY_MAX]
        cdef int n = city_streets_at(&self.c, self._intersection(intersection), out)
        return tuple(out[k] for k in range(n))

    def ends(self, street):
        """City.ends[street]: the intersections in the file's order."""
        s = self._street(street)
        return tuple(self.c.ends[s][k] for k in range(self.c.n_ends[s]))

    def hood_streets(self, hood):
        """City.hood_streets[hood - 1] in the file's order, and as the mask (a Python int)."""
        if not 1 <= hood <= CITY_HOODS:
            raise IndexError(f"precinct compiled city: no Bad Hood {hood}")
        h = hood - 1
        return tuple(self.c.hood_streets[h][k] for k in range(self.c.hood_count[h])), self.c.hood_mask[h]

    def building_streets(self):
        """The street of every building, in City.buildings' order."""
        return tuple(self.c.building_street[k] for k in range(self.c.n_buildings))

    def block_buildings(self):
        """(apartments, warehouses) as building indexes, block 1 first."""
        return (tuple(self.c.apartment[k] for k in range(CITY_BLOCKS)),
                tuple(self.c.warehouse[k] for k in range(CITY_BLOCKS)))

    def station_hospital(self):
        """(the Police Station's street, the Hospital's street), -1 for a missing building."""
        return self.c.station_street, self.c.hospital_street
