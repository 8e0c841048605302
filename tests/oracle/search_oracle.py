#!/usr/bin/env python3
"""A model of ds's Search module, written from docs/search.md (the algorithms, the order of
successors and ties, where the goal is tested, and the definition of every count); it does not
use the Rust interpreter.  The puzzle and problem oracles (puzzles.py, problems.py) use it to
compute what the scripts print when they search through the module.

    search(algorithm, start, succ, goal, h=None, limit=None, max_states=None) -> dict

`succ(state)` returns [(action, state, cost), ...] in order; `goal(state)` a bool; `h(state)` a
number. States must be hashable (tuples, strings, numbers). The dict holds found (True, False or
None), reason, path, actions, cost, expanded, generated, duplicates, max_frontier, depth, states,
and trace: one dict per expansion (step, id, parent, action, state, depth, g, h, f).

    search_oracle.py --selftest     small problems with answers worked out by hand
"""

import heapq
import math
import sys


class Store:
    """States numbered in discovery order (0 the start), each with its origin."""

    def __init__(self, start):
        self.states = [start]
        self.index = {start: 0}
        self.origin = [dict(parent=-1, action=None, depth=0, g=0.0)]

    def add(self, state, parent, action, depth, g):
        self.index[state] = len(self.states)
        self.states.append(state)
        self.origin.append(dict(parent=parent, action=action, depth=depth, g=g))
        return len(self.states) - 1

    def path(self, i):
        ids = []
        while i != -1:
            ids.append(i)
            i = self.origin[i]["parent"]
        return ids[::-1]


class Full(Exception):
    """max_states states are stored and another is needed."""


class Run:
    def __init__(self, start, succ, goal, h, max_states):
        self.store = Store(start)
        self.succ, self.goal, self.hf = succ, goal, h
        self.max_states = max_states
        self.c = dict(expanded=0, generated=0, duplicates=0, max_frontier=0, depth=0)
        self.trace = []

    def frontier(self, n):
        self.c["max_frontier"] = max(self.c["max_frontier"], n)

    def reached(self, d):
        self.c["depth"] = max(self.c["depth"], d)

    def expand(self, i, h=None, f=None):
        o = self.store.origin[i]
        self.trace.append(dict(step=self.c["expanded"] + 1, id=i, parent=o["parent"], action=o["action"],
                               state=self.store.states[i], depth=o["depth"], g=o["g"], h=h,
                               f=o["g"] if f is None else f))
        out = self.succ(self.store.states[i])
        self.c["expanded"] += 1
        self.c["generated"] += len(out)
        return out

    def find_or_add(self, state, parent, action, depth, g):
        """(id, new); raises Full rather than store one state too many."""
        if state in self.store.index:
            return self.store.index[state], False
        if self.max_states is not None and len(self.store.states) >= self.max_states:
            raise Full()
        return self.store.add(state, parent, action, depth, g), True

    def set_origin(self, i, parent, action, depth, g):
        self.store.origin[i] = dict(parent=parent, action=action, depth=depth, g=g)


def bfs(r):
    # the start first, as every algorithm tests it (issue 41; the seed's solver does not)
    if r.goal(r.store.states[0]):
        return [0], None
    level, nxt, depth = 0, 1, 0
    while level < nxt:
        for i in range(level, nxt):
            r.frontier((nxt - i) + (len(r.store.states) - nxt))
            g = r.store.origin[i]["g"]
            for action, s, cost in r.expand(i):
                sid, new = r.find_or_add(s, i, action, depth + 1, g + cost)
                if new:
                    r.reached(depth + 1)
                    if r.goal(s):
                        return r.store.path(sid), None
                    continue
                r.c["duplicates"] += 1
        level, nxt, depth = nxt, len(r.store.states), depth + 1
    return None, "exhausted"


def limited(r, limit):
    """One depth-first search from the start; (path, None) or (None, cut)."""
    best = {0: 0}
    stack = [(0, 0)]
    cut = False
    while stack:
        i, d = stack.pop()
        if best[i] < d:
            continue
        if limit is not None and d >= limit:
            cut = True
            continue
        r.frontier(len(stack) + 1)
        g = r.store.origin[i]["g"]
        children = []
        for action, s, cost in r.expand(i):
            sid, new = r.find_or_add(s, i, action, d + 1, g + cost)
            if not new:
                if best.get(sid, math.inf) <= d + 1:
                    r.c["duplicates"] += 1
                    continue
                r.set_origin(sid, i, action, d + 1, g + cost)
            best[sid] = d + 1
            r.reached(d + 1)
            if new and r.goal(s):
                return r.store.path(sid), None
            children.append((sid, d + 1))
        stack.extend(reversed(children))
    return None, cut


def dfs(r, limit):
    if r.goal(r.store.states[0]):
        return [0], None
    path, cut = limited(r, limit)
    if path is not None:
        return path, None
    return None, "limit" if cut and limit is not None else "exhausted"


def iddfs(r, limit):
    if r.goal(r.store.states[0]):
        return [0], None
    k = 1
    while True:
        if limit is not None and k > limit:
            return None, "limit"
        path, cut = limited(r, k)
        if path is not None:
            return path, None
        if not cut:
            return None, "exhausted"
        k += 1


def best_first(r, algorithm):
    informed = algorithm in ("astar", "greedy")
    hs = {}
    if informed:
        hs[0] = r.hf(r.store.states[0])
    heap = []
    seq = [0]
    mark = {}            # id -> "open" / "closed"
    open_count = [0]

    def push(i, g):
        if mark.get(i) != "open":
            open_count[0] += 1
            mark[i] = "open"
        h = hs.get(i, 0)
        key = {"astar": (g + h, h), "greedy": (h, 0)}.get(algorithm, (g, 0))
        seq[0] += 1
        heapq.heappush(heap, (key[0], key[1], seq[0], i, g))

    push(0, 0.0)
    r.frontier(open_count[0])
    while heap:
        k1, _, _, i, g = heapq.heappop(heap)
        if mark.get(i) != "open" or g > r.store.origin[i]["g"]:
            continue
        mark[i] = "closed"
        open_count[0] -= 1
        if r.goal(r.store.states[i]):
            return r.store.path(i), None
        depth = r.store.origin[i]["depth"]
        for action, s, cost in r.expand(i, hs.get(i) if informed else None, k1):
            g2 = g + cost
            sid, new = r.find_or_add(s, i, action, depth + 1, g2)
            if new:
                if informed:
                    hs[sid] = r.hf(s)
            elif algorithm == "greedy" or g2 >= r.store.origin[sid]["g"]:
                r.c["duplicates"] += 1
                continue
            else:
                r.set_origin(sid, i, action, depth + 1, g2)
            r.reached(depth + 1)
            push(sid, g2)
        r.frontier(open_count[0])
    return None, "exhausted"


def idastar(r):
    hs = {0: r.hf(r.store.states[0])}
    not_goal = set()
    bound = hs[0]
    while True:
        result = ida_round(r, bound, hs, not_goal)
        if isinstance(result, list):
            return result, None
        if result == math.inf:
            return None, "exhausted"
        bound = result


def ida_round(r, bound, hs, not_goal):
    """One round; `best` is the least g the round reached each state with (a successor
    reached again no cheaper is a duplicate)."""
    nxt = math.inf
    best = {0: 0.0}
    stack = []          # [children, next index]
    waiting = 0
    visit = (0, dict(r.store.origin[0]))
    while True:
        if visit is not None:
            i, o = visit
            visit = None
            f = o["g"] + hs[i]
            if best[i] < o["g"]:
                pass                                  # reached cheaper meanwhile
            elif f > bound:
                nxt = min(nxt, f)
            else:
                if i != 0:
                    r.set_origin(i, o["parent"], o["action"], o["depth"], o["g"])
                if i not in not_goal:
                    if r.goal(r.store.states[i]):
                        return r.store.path(i)
                    not_goal.add(i)
                out = r.expand(i, hs[i], f)
                children = []
                for action, s, cost in out:
                    d, g = o["depth"] + 1, o["g"] + cost
                    sid, new = r.find_or_add(s, i, action, d, g)
                    if new:
                        hs[sid] = r.hf(s)
                    if best.get(sid, math.inf) <= g:
                        r.c["duplicates"] += 1
                        continue
                    best[sid] = g
                    r.reached(d)
                    children.append((sid, dict(parent=i, action=action, depth=d, g=g)))
                waiting += len(children)
                r.frontier(waiting)
                stack.append([children, 0])
        if not stack:
            return nxt
        top = stack[-1]
        if top[1] < len(top[0]):
            visit = top[0][top[1]]
            top[1] += 1
            waiting -= 1
        else:
            stack.pop()


def beam(r, width):
    """Level by level, keeping of each level's new states the `width` of least h (a stable
    sort: the first generated among equals); goals tested when generated."""
    width = 3 if width is None else width
    hs = {0: r.hf(r.store.states[0])}
    if r.goal(r.store.states[0]):
        return [0], None
    level, dropped = [0], False
    while level:
        nxt = []
        for k, i in enumerate(level):
            r.frontier(len(level) - k + len(nxt))
            o = r.store.origin[i]
            for action, s, cost in r.expand(i, hs[i], hs[i]):
                sid, new = r.find_or_add(s, i, action, o["depth"] + 1, o["g"] + cost)
                if not new:
                    r.c["duplicates"] += 1
                    continue
                r.reached(o["depth"] + 1)
                hs[sid] = r.hf(s)
                if r.goal(s):
                    return r.store.path(sid), None
                nxt.append(sid)
        nxt.sort(key=lambda i: hs[i])
        dropped = dropped or len(nxt) > width
        level = nxt[:width]
    return None, "incomplete" if dropped else "exhausted"


def rbfs(r):
    """AIMA's recursive best-first search (figure 3.26), written recursively; a successor on
    the current path is a duplicate, and a child of infinite f is never entered. `held`
    counts the start and the children of every state on the path (max_frontier)."""
    hs = {0: r.hf(r.store.states[0])}
    on_path, held = set(), [1]

    def visit(i, o, f, limit):
        """(path, None) or (None, the backed-up f)."""
        if i != 0:
            r.set_origin(i, o["parent"], o["action"], o["depth"], o["g"])
        r.frontier(held[0])
        if r.goal(r.store.states[i]):
            return r.store.path(i), None
        out = r.expand(i, hs[i], f)
        on_path.add(i)
        children = []
        for action, s, cost in out:
            d, g = o["depth"] + 1, o["g"] + cost
            sid, new = r.find_or_add(s, i, action, d, g)
            if new:
                hs[sid] = r.hf(s)
            if sid in on_path:
                r.c["duplicates"] += 1
                continue
            r.reached(d)
            children.append([sid, dict(parent=i, action=action, depth=d, g=g), max(g + hs[sid], f)])
        held[0] += len(children)
        try:
            while True:
                if not children:
                    return None, math.inf
                order = sorted(range(len(children)), key=lambda k: children[k][2])
                best = children[order[0]]
                if best[2] > limit or best[2] == math.inf:
                    return None, best[2]
                alternative = children[order[1]][2] if len(order) > 1 else math.inf
                path, backed = visit(best[0], best[1], best[2], min(limit, alternative))
                if path is not None:
                    return path, None
                best[2] = backed
        finally:
            held[0] -= len(children)
            on_path.discard(i)

    sys.setrecursionlimit(100000)
    path, _ = visit(0, dict(r.store.origin[0]), hs[0], math.inf)
    return (path, None) if path is not None else (None, "exhausted")


# The algorithms, by the names of ds's algorithm table (crates/core/src/search/algorithms.rs; a test,
# tests/integration/algorithm_table.rs, fails when the two lists differ): name -> how to run it
# on a Run with the search's options.
ALGORITHMS = {
    "bfs": lambda r, o: bfs(r),
    "dfs": lambda r, o: dfs(r, o.get("limit")),
    "iddfs": lambda r, o: iddfs(r, o.get("limit")),
    "ucs": lambda r, o: best_first(r, "ucs"),
    "astar": lambda r, o: best_first(r, "astar"),
    "idastar": lambda r, o: idastar(r),
    "rbfs": lambda r, o: rbfs(r),
    "greedy": lambda r, o: best_first(r, "greedy"),
    "beam": lambda r, o: beam(r, o.get("width")),
}


def search(algorithm, start, succ, goal, h=None, limit=None, max_states=None, **options):
    r = Run(start, succ, goal, h, max_states)
    last = None
    options["limit"] = limit
    try:
        ids, last = ALGORITHMS[algorithm](r, options)
    except Full:
        ids, last = None, "max_states"
    res = dict(r.c, states=len(r.store.states), trace=r.trace, algorithm=algorithm)
    if ids is None:
        res.update(found=None if last in ("max_states", "incomplete") else False, reason=last, path=[], actions=[], cost=None)
        return res
    origins = [r.store.origin[i] for i in ids]
    res.update(found=True, reason="goal", path=[r.store.states[i] for i in ids],
               actions=[o["action"] for o in origins[1:]], cost=origins[-1]["g"])
    return res


# ----------------------------------------------------------------------------- Search.anneal

MASK = (1 << 64) - 1


class SplitMix64:
    """splitmix64 (Steele, Lea and Flood 2014), as docs/search.md states it: the state
    advances by 0x9E3779B97F4A7C15 and each output is a mix of it; unit() is the top 53
    bits of an output over 2^53."""

    def __init__(self, seed):
        self.x = seed & MASK

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) / float(1 << 53)


def anneal(start, succ, value, seed=0, t0=1.0, decay=0.995, steps=1000, max_states=None):
    """Search.anneal as docs/search.md describes it (AIMA's SIMULATED-ANNEALING as
    aima-python writes it). The dict holds best, value, reason, path (by first-met origins),
    moves, the counts, and walk: the ids of the states expanded, in order."""
    r = Run(start, succ, None, None, max_states)
    rng = SplitMix64(seed)
    values = [value(start)]
    at, best, moves, walk, reason = 0, 0, 0, [], "cooled"
    try:
        for k in range(steps):
            t = t0 * decay ** k
            if t <= 0:
                break
            walk.append(at)
            o = r.store.origin[at]
            out = r.expand(at)
            if not out:
                reason = "peak"
                break
            action, s, cost = out[int(rng.unit() * len(out))]
            sid, new = r.find_or_add(s, at, action, o["depth"] + 1, o["g"] + cost)
            if new:
                r.reached(o["depth"] + 1)
                values.append(value(s))
            else:
                r.c["duplicates"] += 1
            delta = values[sid] - values[at]
            if delta > 0 or rng.unit() < math.exp(delta / t):
                at, moves = sid, moves + 1
                if values[sid] > values[best]:
                    best = sid
    except Full:
        reason = "max_states"
    return dict(r.c, best=r.store.states[best], value=values[best], reason=reason, moves=moves,
                path=[r.store.states[i] for i in r.store.path(best)], walk=walk, states=len(r.store.states))


# ----------------------------------------------------------------------------- Search.bibfs

def bibfs(start, succ, prev, goal, max_states=None):
    """Search.bibfs as docs/search.md describes it: breadth-first from the start by succ and
    from the goal by prev, a whole level at a time, the side with fewer states waiting first
    (forward on a tie), until one side meets a state the other stored. prev(s) gives
    [(action, p, cost), ...]: the states p with s among their successors."""
    r = Run(start, succ, None, None, max_states)
    side, cost = {0: "f"}, {0: 0}
    res = dict(found=None, reason=None, path=[], actions=[], cost=None)
    try:
        if goal == start:
            res.update(found=True, reason="goal", path=[start], cost=0)
            return dict(r.c, states=1, **res)
        gid, _ = r.find_or_add(goal, -1, None, 0, 0.0)
        side[gid], cost[gid] = "b", 0
        fronts = {"f": [0], "b": [gid]}
        while fronts["f"] and fronts["b"]:
            d = "b" if len(fronts["b"]) < len(fronts["f"]) else "f"
            level, fronts[d] = fronts[d], []
            for k, i in enumerate(level):
                r.frontier(len(level) - k + len(fronts["f"]) + len(fronts["b"]))
                o = r.store.origin[i]
                moves = r.expand(i) if d == "f" else expand_by(r, i, prev)
                for action, s, c in moves:
                    sid, new = r.find_or_add(s, i, action, o["depth"] + 1, o["g"] + c)
                    if new:
                        r.reached(o["depth"] + 1)
                        side[sid], cost[sid] = d, c
                        fronts[d].append(sid)
                    elif side[sid] != d:
                        ends = (i, sid) if d == "f" else (sid, i)
                        res.update(found=True, reason="goal", **joined(r, ends, action, c, cost))
                        return dict(r.c, states=len(r.store.states), **res)
                    else:
                        r.c["duplicates"] += 1
        res.update(found=False, reason="exhausted")
    except Full:
        res.update(reason="max_states")
    return dict(r.c, states=len(r.store.states), **res)


def expand_by(r, i, prev):
    """A backward expansion: counted as Run.expand counts one."""
    out = prev(r.store.states[i])
    r.c["expanded"] += 1
    r.c["generated"] += len(out)
    return out


def joined(r, ends, action, c, cost):
    """The path start..ends[0], ends[1]..goal: its states, actions and cost."""
    ids = r.store.path(ends[0])
    actions = [r.store.origin[i]["action"] for i in ids[1:]] + [action]
    total = r.store.origin[ends[0]]["g"] + c
    i = ends[1]
    while True:
        ids.append(i)
        up = r.store.origin[i]["parent"]
        if up == -1:
            break
        actions.append(r.store.origin[i]["action"])
        total += cost[i]
        i = up
    return dict(path=[r.store.states[i] for i in ids], actions=actions, cost=total)


# ----------------------------------------------------------------------------- Search.compare

COMPARE_COLUMNS = [("algorithm", "algorithm"), ("length", "length"), ("cost", "cost"),
                   ("expanded", "expanded"), ("generated", "generated"), ("duplicates", "duplicates"),
                   ("max frontier", "max_frontier")]


def number(x):
    """A number as ds prints it: integral values without a fraction."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def compare_rows(entries, start, succ, goal):
    """Search.compare's rows: entries are (label, algorithm, h)."""
    rows = []
    for label, alg, h in entries:
        r = search(alg, start, succ, goal, h=h)
        rows.append(dict(r, algorithm=label, length=len(r["actions"]) if r["found"] else None))
    return rows


def compare_table(rows):
    """Search.compare's table without the ms column ({"time": False}): the algorithm
    left-aligned, the numbers right-aligned, two spaces between columns (docs/search.md)."""
    def cell(row, key):
        v = row[key]
        if key == "length" and v is None:
            return "none" if row["reason"] in ("exhausted", "limit") else row["reason"]
        if v is None:
            return "-"
        return v if isinstance(v, str) else number(v)
    grid = [[c[0] for c in COMPARE_COLUMNS]] + [[cell(r, c[1]) for c in COMPARE_COLUMNS] for r in rows]
    widths = [max(len(line[i]) for line in grid) for i in range(len(COMPARE_COLUMNS))]
    out = []
    for line in grid:
        text = line[0].ljust(widths[0])
        for i in range(1, len(line)):
            text += "  " + line[i].rjust(widths[i])
        out.append(text.rstrip())
    return out


# ----------------------------------------------------------------------------- self-test

def selftest():
    # Reach 10 from 1 by inc (+1, cost 1) and dbl (*2, cost 3): docs/search.md's first search
    succ = lambda n: [("inc", n + 1, 1), ("dbl", n * 2, 3)]
    goal = lambda n: n == 10
    r = search("bfs", 1, succ, goal)
    assert (r["actions"], r["cost"]) == (["inc", "dbl", "inc", "dbl"], 8), r
    assert (r["expanded"], r["generated"], r["duplicates"], r["max_frontier"], r["depth"], r["states"]) == \
        (6, 12, 3, 4, 4, 10), r
    r = search("ucs", 1, succ, goal)
    assert (r["actions"], r["cost"]) == (["inc", "inc", "inc", "inc", "dbl"], 7), r
    for alg in ("astar", "idastar"):
        assert search(alg, 1, succ, goal, h=lambda n: 0)["cost"] == 7
    assert search("iddfs", 1, succ, goal)["cost"] == 8
    g = search("greedy", 1, succ, goal, h=lambda n: abs(10 - n))
    assert (g["path"], g["cost"]) == ([1, 2, 4, 8, 9, 10], 9), g
    m = search("bfs", 1, succ, lambda n: False, max_states=100)
    assert (m["found"], m["reason"], m["states"]) == (None, "max_states", 100), m
    # a start that is a goal: every algorithm tests it first, with nothing expanded
    back = lambda n: [("x", 1 - n, 1)]
    for alg in ("bfs", "dfs", "iddfs", "ucs", "astar", "idastar", "greedy"):
        b = search(alg, 0, back, lambda n: n == 0, h=lambda n: 0)
        assert (b["path"], b["cost"], b["expanded"]) == ([0], 0, 0), (alg, b)
    print("search_oracle selftest ok")


# ----------------------------------------------------------------------------- --run

def eight_moves(s):
    """The 8-puzzle's moves from s (cells row by row, 0 the blank), named by the direction the
    blank moves, in the order up, down, left, right (as scripts/compare.ds)."""
    b = s.index("0")
    row, col = divmod(b, 3)
    out = []
    for name, ok, t in (("up", row > 0, b - 3), ("down", row < 2, b + 3),
                        ("left", col > 0, b - 1), ("right", col < 2, b + 1)):
        if ok:
            cells = list(s)
            cells[b], cells[t] = cells[t], cells[b]
            out.append((name, "".join(cells), 1))
    return out


def manhattan(s, goal="123804765"):
    d = 0
    for i, c in enumerate(s):
        if c != "0":
            j = goal.index(c)
            d += abs(i // 3 - j // 3) + abs(i % 3 - j % 3)
    return d


ROADS = {"A": [("B", 4), ("C", 2)], "B": [("D", 5)], "C": [("B", 1), ("D", 8), ("E", 10)],
         "D": [("E", 2), ("F", 6)], "E": [("F", 2)], "F": []}
TO_F = {"A": 9, "B": 7, "C": 8, "D": 4, "E": 2, "F": 0}

# The problems of `--run` (tests/integration/algorithm_oracle.rs writes each in ds):
# name -> (start, succ, goal, h).
PROBLEMS = {
    "numbers": (1, lambda n: [("inc", n + 1, 1), ("dbl", n * 2, 3)], lambda n: n == 10, lambda n: abs(10 - n)),
    "bounded": (1, lambda n: [("inc", n + 1, 1), ("dbl", n * 2, 3)] if n < 20 else [], lambda n: n == 37,
                lambda n: n),
    "roads": ("A", lambda t: [(t + "-" + p, p, c) for p, c in ROADS[t]], lambda t: t == "F", lambda t: TO_F[t]),
    "eight": ("283164705", eight_moves, lambda s: s == "123804765", manhattan),
}


OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
BACK = {"A": [], "B": [("A", 4), ("C", 1)], "C": [("A", 2)], "D": [("B", 5), ("C", 8)],
        "E": [("C", 10), ("D", 2)], "F": [("D", 6), ("E", 2)]}

# The predecessors of each problem's states, for Search.bibfs: (action, state, cost), the
# action and cost of the move from that state.
PREV = {
    "numbers": lambda n: ([("inc", n - 1, 1)] if n > 1 else []) + ([("dbl", n // 2, 3)] if n % 2 == 0 else []),
    "bounded": lambda n: ([("inc", n - 1, 1)] if 1 < n <= 20 else []) +
                         ([("dbl", n // 2, 3)] if n % 2 == 0 and n // 2 < 20 else []),
    "roads": lambda t: [(p + "-" + t, p, c) for p, c in BACK[t]],
    "eight": lambda s: [(OPPOSITE[a], t, c) for a, t, c in eight_moves(s)],
}


def bibfs_line(problem, start=None, goal=None):
    """Search.bibfs on a problem (from `start` to `goal` when given) as ds's test prints it."""
    s0, succ, goal_test, _ = PROBLEMS[problem]
    start = s0 if start is None else start
    if goal is None:
        goal = {"numbers": 10, "bounded": 37, "roads": "F", "eight": "123804765"}[problem]
    r = bibfs(start, succ, PREV[problem], goal)
    found = {True: "True", False: "False", None: "Undef"}[r["found"]]
    path = "[" + ",".join(str(s) for s in r["path"]) + "]"
    actions = "[" + ",".join(str(a) for a in r["actions"]) + "]"
    cost = "Undef" if r["cost"] is None else number(r["cost"])
    counts = [str(r[k]) for k in ("expanded", "generated", "duplicates", "max_frontier", "depth", "states")]
    return " ".join([found, r["reason"], path, actions, cost] + counts)


def landscape(name):
    """The landscapes of Search.anneal's oracle test: (start, succ, value).
    line: 0..10 by one step left or right (docs/search.md's hill), a local peak at 3;
    grid: cells x*10+y of an 8x8 grid, four neighbours, a local peak of 5 at (2,2) beside
    the global one, 9 at (6,5)."""
    if name == "line":
        v = [0, 2, 4, 5, 3, 2, 3, 6, 9, 7, 1]
        return 0, lambda n: [(None, m, 1) for m in (n - 1, n + 1) if 0 <= m <= 10], lambda n: v[n]

    def near(n):
        x, y = divmod(n, 10)
        cells = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        return [(None, a * 10 + b, 1) for a, b in cells if 0 <= a < 8 and 0 <= b < 8]

    def value(n):
        x, y = divmod(n, 10)
        return max(5 - abs(x - 2) - abs(y - 2), 9 - 2 * (abs(x - 6) + abs(y - 5)), 0)
    return 0, near, value


def anneal_lines(name, seed, t0, decay, steps):
    start, succ, value = landscape(name)
    r = anneal(start, succ, value, seed=seed, t0=t0, decay=decay, steps=steps)
    counts = [str(r[k]) for k in ("expanded", "generated", "duplicates", "depth", "states", "moves")]
    first = " ".join([number(r["best"]), number(r["value"]), r["reason"]] + counts)
    return first + "\n" + "[" + ",".join(str(i) for i in r["walk"]) + "]"


def run_line(problem, algorithm, options):
    """One search of a problem as the line ds's test prints: found, reason, path, cost and
    the counts."""
    start, succ, goal, h = PROBLEMS[problem]
    r = search(algorithm, start, succ, goal, h=h, **options)
    found = {True: "True", False: "False", None: "Undef"}[r["found"]]
    path = "[" + ",".join(str(s) for s in r["path"]) + "]"
    cost = "Undef" if r["cost"] is None else number(r["cost"])
    counts = [str(r[k]) for k in ("expanded", "generated", "duplicates", "max_frontier", "depth", "states")]
    return " ".join([found, r["reason"], path, cost] + counts)


if __name__ == "__main__":
    if sys.argv[1:] == ["--selftest"]:
        selftest()
    elif sys.argv[1:2] == ["--anneal"]:
        # --anneal LANDSCAPE SEED T0 DECAY STEPS
        a = sys.argv[2:]
        print(anneal_lines(a[0], int(a[1]), float(a[2]), float(a[3]), int(a[4])))
    elif sys.argv[1:2] == ["--bibfs"]:
        # --bibfs PROBLEM [START [GOAL]] (numbers for numbers and bounded, else strings)
        numeric = sys.argv[2] in ("numbers", "bounded")
        ends = [int(x) if numeric else x for x in sys.argv[3:5]] + [None, None]
        print(bibfs_line(sys.argv[2], ends[0], ends[1]))
    elif sys.argv[1:2] == ["--run"]:
        # --run PROBLEM ALGORITHM [OPTION=N ...]
        opts = {k: int(v) for k, v in (a.split("=") for a in sys.argv[4:])}
        print(run_line(sys.argv[2], sys.argv[3], opts))
    else:
        print(__doc__)
        sys.exit(2)
