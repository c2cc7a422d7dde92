# cython: cdivision=True
# The compiled ISMCTS kernel, twin of solver/search/ismcts.py (whose docstring defines the algorithm,
# every tie-break and every random draw; this file follows it step by step, so both return the same
# statistics for the same seed). Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
# Tree Search", IEEE TCIAIG 4(2).
#
# The tree lives in C arrays, never in Python objects:
#
#   nodes[id]      = {key, seat, start, count}         one information set (seat, key)
#   edges[start .. start+count)                        that node's edges, sorted by action
#   slots[h]       = node id or -1                     open addressing, linear probing,
#                                                      power-of-two size, load <= 1/2
#
# All three grow by doubling. A node that meets an action it has no edge for (a determinization in
# which more is legal) moves its block to the end of the edge pool with the union; the old block is
# left unused (rare: it needs legal actions that differ inside one information set).
#
# The walk records (node, action, seat) rather than edge indices, because a later move of a block
# would leave an index stale; backpropagation finds each edge again by binary search.
#
# Python simulators run through PySim/PyDeterminizer, which forward the C-level calls to a Python
# Sim and Determinizer (for equality tests against the reference; no speed is expected there).

from libc.stdlib cimport malloc, realloc, free
from libc.math cimport INFINITY
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from posix.unistd cimport usleep
from cpython.exc cimport PyErr_CheckSignals

from solver._ext.rng cimport SplitMix
from solver._ext.rng cimport sm_below
from solver._ext.simbase cimport Sim, CDeterminizer, SIM_MAX_ACTIONS, SIM_CHANCE, SIM_TERMINAL

from solver.core.rng import SplitMix64

cdef uint64_t _MASK64 = 0xFFFFFFFFFFFFFFFFULL
_PY_MASK64 = (1 << 64) - 1
cdef int _MAX_ITERATIONS = 2147483647
# Microseconds the search sleeps, GIL released, at each poll inside a server request (a scope). A
# bare release-and-retake starves the other threads: CPython's waiting thread asks the holder to
# drop the GIL only when no switch happened during its 5 ms wait, and every retake here counts as a
# switch, so a server's other clients waited up to seconds. A short sleep lets a waiting thread in.
cdef unsigned int _HANDOFF_US = 50
cdef int _MAX_EDGES = 1 << 30  # int indices, and a pool of 24-byte edges under 26 GB


cdef enum:
    _OK = 0
    _WRONG_SEAT = 1
    _LEFT_ROOT = 2
    _NO_LEGAL = 3


cdef struct Node:
    uint64_t key
    int seat
    int start
    int count


cdef struct Edge:
    int action
    int visits
    int avail
    double total


cdef extern from *:
    """
    /* UCB1 as Python evaluates it: mean + (c * sqrt(log(avail) / visits)), every operation rounded
       to double. The volatile store keeps the compiler from fusing the multiply and the add into
       one FMA (GCC does by default where the CPU has one, e.g. aarch64), which rounds once and
       would break the equality with the pure reference. */
    static double ismcts_ucb(double total, int visits, int avail, double c) {
        volatile double explore = c * sqrt(log((double)avail) / (double)visits);
        return total / (double)visits + explore;
    }
    """
    double ismcts_ucb(double total, int visits, int avail, double c) noexcept nogil


cdef inline uint64_t _slot_hash(int seat, uint64_t key) noexcept nogil:
    # SplitMix64's finalizer: view keys may be structured (Zobrist parts), slots need spread bits
    cdef uint64_t z = key ^ (<uint64_t>(seat + 1) * <uint64_t>0x9E3779B97F4A7C15ULL)
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef class Tree:
    """One search's tree in growable C arrays (see the layout above)."""

    cdef Node* nodes
    cdef int n_nodes
    cdef int cap_nodes
    cdef Edge* edges
    cdef int n_edges
    cdef int cap_edges
    cdef int* slots
    cdef int cap_slots
    # the current iteration's walk
    cdef int* path_node
    cdef int* path_action
    cdef int* path_seat
    cdef int cap_path

    def __cinit__(self):
        self.cap_nodes = 1024
        self.cap_edges = 16384
        self.cap_slots = 2048
        self.cap_path = 256
        self.nodes = <Node*>malloc(self.cap_nodes * sizeof(Node))
        self.edges = <Edge*>malloc(self.cap_edges * sizeof(Edge))
        self.slots = <int*>malloc(self.cap_slots * sizeof(int))
        self.path_node = <int*>malloc(self.cap_path * sizeof(int))
        self.path_action = <int*>malloc(self.cap_path * sizeof(int))
        self.path_seat = <int*>malloc(self.cap_path * sizeof(int))
        if (self.nodes == NULL or self.edges == NULL or self.slots == NULL or self.path_node == NULL
                or self.path_action == NULL or self.path_seat == NULL):
            raise MemoryError("ismcts: cannot allocate the search tree")
        cdef int i
        for i in range(self.cap_slots):
            self.slots[i] = -1

    def __dealloc__(self):
        free(self.nodes)
        free(self.edges)
        free(self.slots)
        free(self.path_node)
        free(self.path_action)
        free(self.path_seat)

    cdef int find(self, int seat, uint64_t key) noexcept:
        """The node id of (seat, key), or -1."""
        cdef int mask = self.cap_slots - 1
        cdef int h = <int>(_slot_hash(seat, key) & <uint64_t>mask)
        cdef int n
        while True:
            n = self.slots[h]
            if n < 0:
                return -1
            if self.nodes[n].key == key and self.nodes[n].seat == seat:
                return n
            h = (h + 1) & mask

    cdef void _place(self, int node) noexcept:
        cdef int mask = self.cap_slots - 1
        cdef int h = <int>(_slot_hash(self.nodes[node].seat, self.nodes[node].key) & <uint64_t>mask)
        while self.slots[h] >= 0:
            h = (h + 1) & mask
        self.slots[h] = node

    cdef int _grow_slots(self) except -1:
        cdef int new_cap = self.cap_slots * 2
        cdef int* fresh = <int*>malloc(new_cap * sizeof(int))
        cdef int i
        if fresh == NULL:
            raise MemoryError("ismcts: cannot grow the node table")
        free(self.slots)
        self.slots = fresh
        self.cap_slots = new_cap
        for i in range(new_cap):
            self.slots[i] = -1
        for i in range(self.n_nodes):
            self._place(i)
        return 0

    cdef int _reserve_edges(self, int n) except -1:
        """Room for n more edges at the end of the pool; returns the first new index."""
        cdef long long need = <long long>self.n_edges + n
        cdef int new_cap = self.cap_edges
        cdef Edge* grown
        if need > _MAX_EDGES:
            raise MemoryError("ismcts: the search tree outgrew its edge pool")
        if need > new_cap:
            while new_cap < need:
                new_cap *= 2
            grown = <Edge*>realloc(self.edges, new_cap * sizeof(Edge))
            if grown == NULL:
                raise MemoryError("ismcts: cannot grow the edge pool")
            self.edges = grown
            self.cap_edges = new_cap
        cdef int first = self.n_edges
        self.n_edges = <int>need
        return first

    cdef int add_node(self, int seat, uint64_t key, const int* legal, int n) except -1:
        """Create node (seat, key) with one fresh edge per legal action; returns its id."""
        cdef Node* grown
        cdef int start
        cdef int i
        if self.n_nodes == self.cap_nodes:
            grown = <Node*>realloc(self.nodes, 2 * self.cap_nodes * sizeof(Node))
            if grown == NULL:
                raise MemoryError("ismcts: cannot grow the node array")
            self.nodes = grown
            self.cap_nodes *= 2
        if 2 * (self.n_nodes + 1) > self.cap_slots:
            self._grow_slots()
        start = self._reserve_edges(n)
        for i in range(n):
            self.edges[start + i].action = legal[i]
            self.edges[start + i].visits = 0
            self.edges[start + i].avail = 0
            self.edges[start + i].total = 0.0
        cdef int node = self.n_nodes
        self.nodes[node].key = key
        self.nodes[node].seat = seat
        self.nodes[node].start = start
        self.nodes[node].count = n
        self.n_nodes += 1
        self._place(node)
        return node

    cdef int match(self, int node, const int* legal, int n, int* eidx) noexcept:
        """eidx[i] = edge of legal[i] at node, or -1; returns how many are missing."""
        cdef int j = self.nodes[node].start
        cdef int end = j + self.nodes[node].count
        cdef int missing = 0
        cdef int i
        for i in range(n):
            while j < end and self.edges[j].action < legal[i]:
                j += 1
            if j < end and self.edges[j].action == legal[i]:
                eidx[i] = j
                j += 1
            else:
                eidx[i] = -1
                missing += 1
        return missing

    cdef int widen(self, int node, const int* legal, int n, int missing) except -1:
        """Move node's edges to a new block holding the union with legal (sorted, old counters kept)."""
        cdef int count = self.nodes[node].count
        cdef int dst = self._reserve_edges(count + missing)
        cdef int src = self.nodes[node].start
        cdef int end = src + count
        cdef int i = 0
        cdef int k = dst
        while src < end or i < n:
            if i >= n or (src < end and self.edges[src].action < legal[i]):
                self.edges[k] = self.edges[src]
                src += 1
            elif src < end and self.edges[src].action == legal[i]:
                self.edges[k] = self.edges[src]
                src += 1
                i += 1
            else:
                self.edges[k].action = legal[i]
                self.edges[k].visits = 0
                self.edges[k].avail = 0
                self.edges[k].total = 0.0
                i += 1
            k += 1
        self.nodes[node].start = dst
        self.nodes[node].count = k - dst
        return 0

    cdef Edge* edge_of(self, int node, int action) noexcept:
        """The edge of action at node (binary search), or NULL."""
        cdef int lo = self.nodes[node].start
        cdef int hi = lo + self.nodes[node].count - 1
        cdef int mid
        while lo <= hi:
            mid = (lo + hi) >> 1
            if self.edges[mid].action < action:
                lo = mid + 1
            elif self.edges[mid].action > action:
                hi = mid - 1
            else:
                return &self.edges[mid]
        return NULL

    cdef int push(self, int depth, int node, int action, int seat) except -1:
        cdef int new_cap
        cdef int* a
        cdef int* b
        cdef int* c
        if depth == self.cap_path:
            new_cap = 2 * self.cap_path
            a = <int*>realloc(self.path_node, new_cap * sizeof(int))
            if a != NULL:
                self.path_node = a
            b = <int*>realloc(self.path_action, new_cap * sizeof(int))
            if b != NULL:
                self.path_action = b
            c = <int*>realloc(self.path_seat, new_cap * sizeof(int))
            if c != NULL:
                self.path_seat = c
            if a == NULL or b == NULL or c == NULL:
                raise MemoryError("ismcts: cannot grow the walk")
            self.cap_path = new_cap
        self.path_node[depth] = node
        self.path_action[depth] = action
        self.path_seat[depth] = seat
        return 0


# --- Python simulators behind the C-level contract ------------------------------------------------
cdef class PySim(Sim):
    """Forwards the C-level Sim calls to a Python Sim (``obj``); keeps the first exception it meets.

    The C-level methods cannot raise, so an exception from the Python sim is stored in ``error``
    (and a harmless value returned); the kernel re-raises it after the iteration.
    """

    cdef public object obj
    cdef public object error
    cdef object _rng

    def __cinit__(self):
        self._rng = SplitMix64(0)

    cdef void _fail(self, object exc) noexcept:
        if self.error is None:
            self.error = exc

    cdef int c_current_player(self) noexcept:
        try:
            return self.obj.current_player()
        except BaseException as exc:
            self._fail(exc)
            return SIM_TERMINAL

    cdef int c_legal(self, int* out) noexcept:
        cdef int i = 0
        try:
            legal = self.obj.legal_actions()
            if len(legal) > SIM_MAX_ACTIONS:
                raise OverflowError(f"ismcts: {len(legal)} legal actions, more than {SIM_MAX_ACTIONS}")
            for a in legal:
                out[i] = a
                i += 1
            return i
        except BaseException as exc:
            self._fail(exc)
            return 0

    cdef void c_apply(self, int action) noexcept:
        try:
            self.obj.apply(action)
        except BaseException as exc:
            self._fail(exc)

    cdef bint c_terminal(self) noexcept:
        try:
            return self.error is not None or bool(self.obj.is_terminal())
        except BaseException as exc:
            self._fail(exc)
            return True

    cdef double c_return(self, int seat) noexcept:
        try:
            return self.obj.returns()[seat]
        except BaseException as exc:
            self._fail(exc)
            return 0.0

    cdef uint64_t c_key(self, int seat) noexcept:
        try:
            return <uint64_t>(self.obj.key(seat) & _PY_MASK64)
        except BaseException as exc:
            self._fail(exc)
            return 0

    cdef int c_default_action(self, SplitMix* rng) noexcept:
        try:
            self._rng.state = rng.state
            a = self.obj.default_action(self._rng)
            rng.state = self._rng.state
            return a
        except BaseException as exc:
            self._fail(exc)
            return -1

    cdef void c_copy_from(self, Sim other) noexcept:
        try:
            self.obj = (<PySim>other).obj.copy()
            self.num_players = other.num_players
        except BaseException as exc:
            self._fail(exc)

    cdef Sim c_new(self):
        return PySim()


cdef class PyDeterminizer(CDeterminizer):
    """Forwards ``c_sample_into`` to a Python Determinizer; its sims are PySims."""

    cdef public object det
    cdef object _rng

    def __init__(self, det):
        self.det = det
        self._rng = SplitMix64(0)

    cdef void c_sample_into(self, Sim target, SplitMix* rng) noexcept:
        cdef PySim sim = <PySim>target
        try:
            self._rng.state = rng.state
            sim.obj = self.det.sample(self._rng)
            sim.num_players = sim.obj.num_players
            rng.state = self._rng.state
        except BaseException as exc:
            sim._fail(exc)

    cdef Sim c_new_sim(self):
        return PySim()


# --- the search --------------------------------------------------------------------------------
def search(CDeterminizer det, int root_seat, long long iterations, double seconds, rng,
           double c, long long max_playout_depth, long long check_every, bint searcher_keys=False,
           scope=None, long long node_cap=0, double poll_seconds=0.001):
    """Run ISMCTS for root_seat (iterations <= 0 / seconds <= 0: no such limit); advances rng.

    searcher_keys: nodes are (seat, key of root_seat), SearchParams.keys == "searcher"; else
    (seat, key of seat). node_cap > 0: stop after the iteration at which the tree holds node_cap
    nodes. Every poll_seconds (checked after each iteration) the GIL is released for a moment, so
    other threads run, pending signal handlers run (an exception they raise ends the search), and
    scope (a SearchScope, or None) is asked whether it was cancelled: then the search stops.

    Returns a dict: the root's actions (ascending) with visits, availability and reward totals;
    iterations done, nodes, elapsed seconds, "stopped" (ended by the scope's cancellation) and
    "error" (a message, or "" when the search ran).
    """
    if iterations <= 0 and not seconds > 0:
        raise ValueError("ismcts: the search needs iterations > 0 or seconds > 0")
    if check_every < 1:
        raise ValueError(f"ismcts: check_every must be at least 1, not {check_every}")
    cdef SplitMix r
    r.state = <uint64_t>(rng.state & _PY_MASK64)
    cdef Sim sim = det.c_new_sim()
    cdef PySim pysim = <PySim>sim if isinstance(sim, PySim) else None
    if not isinstance(det, PyDeterminizer) and pysim is not None:
        raise TypeError("ismcts: a compiled determinizer returned a Python-forwarding sim")
    cdef Tree tree = Tree()
    cdef int root_node = -1
    cdef int legal[SIM_MAX_ACTIONS]
    cdef int eidx[SIM_MAX_ACTIONS]
    cdef int untried[SIM_MAX_ACTIONS]
    cdef double* rewards = NULL
    cdef int rewards_cap = 0
    cdef double* grown
    cdef long long done = 0
    cdef long long steps
    cdef bint have_root = False
    cdef bint expanded
    cdef uint64_t root_key = 0
    cdef uint64_t key
    cdef int seat, node, nl, nu, i, action, depth, missing, players
    cdef double best, score, start, elapsed, now, polled
    cdef bint stopped = False
    cdef Edge* e
    cdef Node* nd
    # a broken determinization stops the search with a fault code; the message is built after
    cdef int fault = _OK
    cdef int fault_seat = 0
    cdef uint64_t fault_key = 0
    start = _now()
    polled = start
    try:
        while True:
            det.c_sample_into(sim, &r)
            if pysim is not None and pysim.error is not None:
                raise pysim.error
            seat = sim.c_current_player()
            if seat != root_seat:
                fault = _WRONG_SEAT
                fault_seat = seat
                break
            depth = 0
            expanded = False
            while not sim.c_terminal():
                if expanded:
                    break
                seat = sim.c_current_player()
                if seat == SIM_CHANCE:
                    sim.c_apply(sim.c_default_action(&r))
                    continue
                key = sim.c_key(root_seat if searcher_keys else seat)
                if depth == 0:
                    if not have_root:
                        root_key = key
                    elif key != root_key:
                        fault = _LEFT_ROOT
                        fault_key = key
                        break
                node = tree.find(seat, key)
                nl = sim.c_legal(legal)
                if nl <= 0:
                    fault = _NO_LEGAL
                    fault_seat = seat
                    break
                if node < 0:
                    node = tree.add_node(seat, key, legal, nl)
                    expanded = True
                if depth == 0 and not have_root:
                    root_node = node
                    have_root = True
                missing = tree.match(node, legal, nl, eidx)
                if missing:
                    tree.widen(node, legal, nl, missing)
                    tree.match(node, legal, nl, eidx)
                nu = 0
                for i in range(nl):
                    e = &tree.edges[eidx[i]]
                    e.avail += 1
                    if e.visits == 0:
                        untried[nu] = legal[i]
                        nu += 1
                if nu > 0:
                    action = untried[sm_below(&r, <unsigned int>nu)]
                else:
                    best = -INFINITY
                    action = legal[0]
                    for i in range(nl):
                        e = &tree.edges[eidx[i]]
                        score = ismcts_ucb(e.total, e.visits, e.avail, c)
                        if score > best:
                            best = score
                            action = legal[i]
                tree.push(depth, node, action, seat)
                depth += 1
                sim.c_apply(action)
            if fault != _OK:
                break
            steps = 0
            while steps < max_playout_depth and not sim.c_terminal():
                sim.c_apply(sim.c_default_action(&r))
                steps += 1
            players = sim.num_players
            if players > rewards_cap:
                grown = <double*>realloc(rewards, players * sizeof(double))
                if grown == NULL:
                    raise MemoryError("ismcts: cannot allocate the rewards")
                rewards = grown
                rewards_cap = players
            for i in range(players):
                rewards[i] = sim.c_return(i)
            for i in range(depth):
                e = tree.edge_of(tree.path_node[i], tree.path_action[i])
                e.visits += 1
                e.total += rewards[tree.path_seat[i]]
            if pysim is not None and pysim.error is not None:
                raise pysim.error
            done += 1
            if iterations > 0 and done >= iterations:
                break
            if seconds > 0 and (done >= _MAX_ITERATIONS
                                or (done % check_every == 0 and _now() - start >= seconds)):
                break
            if node_cap > 0 and tree.n_nodes >= node_cap:
                break
            now = _now()
            if now - polled >= poll_seconds:
                polled = now
                # Without this gap the kernel would hold the GIL for the whole search: no other
                # thread (another client of a server, a signal watcher) could run until it ends;
                # in a server request, a sleep rather than a bare release (see _HANDOFF_US).
                if scope is not None:
                    with nogil:
                        usleep(_HANDOFF_US)
                else:
                    with nogil:
                        pass
                PyErr_CheckSignals()
                if scope is not None and scope.cancelled():
                    stopped = True
                    scope.note_stopped()
                    break
        elapsed = _now() - start
    finally:
        free(rewards)
        rng.state = r.state
    if pysim is not None and pysim.error is not None:
        raise pysim.error
    error = ""
    if fault == _WRONG_SEAT:
        error = f"the determinizer's state has seat {fault_seat} to act, not the searching seat {root_seat}"
    elif fault == _LEFT_ROOT:
        error = f"a determinization left the root information set (key {fault_key} != {root_key})"
    elif fault == _NO_LEGAL:
        error = f"seat {fault_seat} must act but has no legal action"
    actions, visits, avail, totals = [], [], [], []
    if have_root:
        nd = &tree.nodes[root_node]
        for i in range(nd.count):
            e = &tree.edges[nd.start + i]
            actions.append(e.action)
            visits.append(e.visits)
            avail.append(e.avail)
            totals.append(e.total)
    return {"actions": actions, "visits": visits, "avail": avail, "totals": totals,
            "iterations": done, "nodes": tree.n_nodes, "elapsed": elapsed, "stopped": stopped,
            "error": error}
