# The Police Precinct city as flat C arrays (ext/precinct_city.pyx), twin of
# solver/games/precinct/city.py (City): the same streets, intersections, hoods, distances and searches.
# tests/test_precinct_kernel_city.py holds the two equal on the shipped map and on edited maps.
#
# Sets are 64-bit masks: bit s of a street set is street s, bit i of an intersection set is
# intersection i (the loader allows at most 64 of each, city.MAX_STREETS / MAX_INTERSECTIONS).
# A blocked mask holds the intersections an emergency lies on; a move passes through an intersection
# at an end of the current street onto any other street ending there, unless the intersection is
# blocked. Two streets that share two intersections are one move apart while either is open.
#
# Kernels use it as
#   from solver._ext.precinct_city cimport CCity, CityC, city_moves, city_reach, ...
# and keep the CCity alive (it owns the struct) while they hold its ``&ccity.c`` pointer.

from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    CITY_MAX = 64           # most streets, intersections and buildings (one 64-bit mask)
    CITY_HOODS = 6          # Bad Hoods 1..6
    CITY_BLOCKS = 6         # apartments and warehouses per city block 1..6


# Everything about one map; read-only after CCity builds it.
cdef struct CityC:
    int n_streets
    int n_intersections
    int n_buildings
    int unreachable                      # n_streets + 1: the distance of a street that cannot be reached
    int n_ends[CITY_MAX]                 # 1 (a dead end) or 2
    int ends[CITY_MAX][2]                # the intersections of street s, in the file's order
    uint64_t at[CITY_MAX]                # the streets ending at intersection i
    uint64_t end_mask[CITY_MAX]          # the intersections of street s
    uint64_t nbr_mask[CITY_MAX]          # the streets one move from street s (s excluded)
    # per street, its neighbours in id order and the intersections each move may pass through
    # (City._adj): the breadth-first order City.path follows
    int deg[CITY_MAX]
    unsigned char nbr[CITY_MAX][CITY_MAX]
    uint64_t via[CITY_MAX][CITY_MAX]
    unsigned char dist[CITY_MAX][CITY_MAX]   # fewest moves, nothing blocked; unreachable when none
    int hood[CITY_MAX]                   # the Bad Hood 1..6 of street s, 0 for none
    uint64_t hood_mask[CITY_HOODS]       # hood h+1's streets
    int hood_count[CITY_HOODS]
    unsigned char hood_streets[CITY_HOODS][CITY_MAX]  # hood h+1's streets in the file's order
    int building_street[CITY_MAX]        # building b (City.buildings' order) -> its street
    int apartment[CITY_BLOCKS]           # block b+1's apartment building, as a building index
    int warehouse[CITY_BLOCKS]           # block b+1's warehouse building, as a building index
    int station_street                   # the street of the Police Station (-1 if the map has none)
    int hospital_street                  # the street of the Hospital (-1 if the map has none)


cdef class CCity:
    cdef readonly object city            # the Python City it was built from
    cdef CityC c


# The searches (ext/precinct_city.pyx). ``steps`` below 0 counts as 0, as in City.moves.

# Streets within ``steps`` moves of ``start`` (start included): the set of City.reach(start, steps,
# blocked). ``sticky`` streets, other than ``start``, may be entered but not driven on through (the
# blockers gang's hood in turn.reachable); pass 0 for none. ``dist_out`` (CITY_MAX entries, or NULL)
# gets each reached street's fewest moves and -1 elsewhere.
cdef uint64_t city_reach(const CityC* c, int start, int steps, uint64_t blocked, uint64_t sticky,
                         int* dist_out) noexcept nogil
# City.moves(start, steps, blocked) as street ids in increasing order into ``out`` (n_streets entries
# suffice); returns how many.
cdef int city_moves(const CityC* c, int start, int steps, uint64_t blocked, int* out) noexcept nogil
# City.path(a, b, blocked) into ``out`` (a first, b last; n_streets entries suffice); returns its length,
# 0 when b cannot be reached. The same path: breadth first, neighbours in id order, first finder wins.
cdef int city_path(const CityC* c, int a, int b, uint64_t blocked, int* out) noexcept nogil
# The streets ending at intersection ``i`` in id order into ``out``; returns how many.
cdef int city_streets_at(const CityC* c, int i, int* out) noexcept nogil


cdef inline int city_distance(const CityC* c, int a, int b) noexcept nogil:
    # City.distance: nothing blocked; n_streets + 1 when b cannot be reached (only a hand-built City)
    return c.dist[a][b]


cdef inline int city_hood_of(const CityC* c, int street) noexcept nogil:
    # City.hood_of, with 0 for None
    return c.hood[street]


cdef inline int mask_pop(uint64_t* mask) noexcept nogil:
    # the lowest set bit's index, cleared from ``mask`` (which must not be 0)
    cdef int k = __builtin_ctzll(mask[0])
    mask[0] &= mask[0] - 1
    return k


cdef inline int mask_count(uint64_t mask) noexcept nogil:
    return __builtin_popcountll(mask)
