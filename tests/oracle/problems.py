#!/usr/bin/env python3
"""Independent oracle for the problem-set scripts of issue 5:
scripts/jugs.ds, missionaries.ds, knights.ds, hanoi.ds, games.ds and roads.ds.

Written in Python (standard library only) from the problem statements (seed 000's variants 1,
2, 3-14, 15 and 16; seed 001's exercise 4.2; the course's problem set) and from the search
conventions documented at the top of each script and in docs/problems.md.  It does not run or
parse DemonScript and shares no code with src/.  It prints exactly the standard output the
scripts must print.  The states are plain Python tuples here (the scripts use world graphs),
and the searches use a heap (the scripts scan an array), so equal results mean the two agree.

Conventions both sides follow (they decide which of several shortest solutions is printed
and the "expanded"/"settled"/"reached" counts):
* jugs: BFS; successors in the order fill jug 1..n (with --tap), empty jug 1..n (with --tap),
  pour i -> j (i outer, j inner); a state is tested for the goal when first reached.
* missionaries, knights, hanoi: A* with f = g + h; the open entry with the least f, the
  earliest added among equal f, is expanded next; an entry whose state was expanded already
  is skipped; the goal test is made when a state is expanded; a successor is added when its
  state is not expanded and its g is smaller than any g seen for it.
  Missionaries: successors for NM = 0..BOAT, NC = 0..BOAT-NM (not both 0); states are the
  counts on the left bank and the boat's bank.  Knights: successors are the groups of people
  on the boat's bank (knights k1..kN, then squires s1..sN) by size 1..BOAT, each size in
  lexicographic order.  Hanoi: moves From -> To for From, To in A, B, C.
* games: a position is won when some move reaches the winning condition or a lost position;
  moves in the order of the variant's list (heap moves: heap 1 first).
* roads: Dijkstra / A* settle the open town with the least G + H, the earliest opened among
  equals; neighbours in the order the towns first appear in the file; a town's G and parent
  change only on a strictly shorter way.

Independent checks (--selftest): the known answers of the problem set (missionaries 3 3 2 and
knights 3 2: 11 crossings; hanoi 2^n - 1; jugs 8,5,3: 7 and --tap 3,5: 6; Arad - Bucharest
418), plain BFS lengths for every crossing instance, Floyd-Warshall distances for every road
case, and for the games a bottom-up (retrograde) analysis of every reachable position.

Usage:
    problems.py NAME [ARGS...]     expected output of `ds scripts/NAME.ds ARGS...`
    problems.py --all [--write]    for every tests/expected/NAME[@CASE].args of the six scripts
                                   (and NAME.out for no arguments): compare (or write) the .out
    problems.py --selftest
"""

import heapq
import itertools
import math
import os
import sys
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_oracle  # noqa: E402  (the model of ds's Search module)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMES = ("jugs", "missionaries", "knights", "hanoi", "games", "roads", "search_problems")


def num(x):
    """A number as ds prints it: shortest form, no trailing .0."""
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    return repr(x)


def whole(text):
    try:
        x = float(text.strip())
    except ValueError:
        return None
    return x if x == math.floor(x) else None


# ----------------------------------------------------------------------------- jugs

def jugs(args):
    usage = "usage: ds jugs.ds [--tap] CAPACITIES START GOAL   (e.g. --tap 3,5 0,0 _,4)"
    caps, start, goal, tap = [8, 5, 3], [8, 0, 0], [4, 4, None], False
    args = list(args)
    if args:
        if args[0] == "--tap":
            tap = True
            args.pop(0)
        if len(args) != 3:
            return ["expected CAPACITIES START GOAL", usage]

        def parse(text, any_ok):
            out = []
            for p in text.split(","):
                p = p.strip()
                if any_ok and p == "_":
                    out.append(None)
                    continue
                n = whole(p)
                if n is None or n < 0:
                    return None
                out.append(int(n))
            return out
        caps, start, goal = parse(args[0], False), parse(args[1], False), parse(args[2], True)
        if caps is None or start is None or goal is None:
            return ["amounts must be whole numbers >= 0 (and `_` only in GOAL)", usage]
        if len(start) != len(caps) or len(goal) != len(caps):
            return ["CAPACITIES, START and GOAL must name the same number of jugs", usage]
        for i, (s, c) in enumerate(zip(start, caps)):
            if s > c:
                return [f"jug {i + 1} cannot hold {s}", usage]
    n = len(caps)
    show = lambda s: ",".join(str(x) for x in s)
    lines = [f"jugs: {show(caps)}   start: {show(start)}   goal: "
             + ",".join("_" if g is None else str(g) for g in goal)
             + "   tap and sink: " + ("yes" if tap else "no")]

    def reached(s):
        return all(g is None or x == g for x, g in zip(s, goal))

    def succ(s):
        out = []
        if tap:
            for i in range(n):
                if s[i] < caps[i]:
                    t = list(s); t[i] = caps[i]
                    out.append((f"fill jug {i + 1} from the tap", tuple(t)))
            for i in range(n):
                if s[i] > 0:
                    t = list(s); t[i] = 0
                    out.append((f"empty jug {i + 1} into the sink", tuple(t)))
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                a = min(s[i], caps[j] - s[j])
                if a <= 0:
                    continue
                t = list(s); t[i] -= a; t[j] += a
                out.append((f"pour jug {i + 1} into jug {j + 1}", tuple(t)))
        return out

    s0 = tuple(start)
    parent = {s0: None}
    found = s0 if reached(s0) else None
    queue = deque([s0])
    while found is None and queue:
        s = queue.popleft()
        for text, t in succ(s):
            if t in parent:
                continue
            parent[t] = (s, text)
            if reached(t):
                found = t
                break
            queue.append(t)
    lines.append(f"states reached: {len(parent)}")
    if found is None:
        return lines + ["no sequence of steps reaches the goal", "answer: none"]
    steps = []
    s = found
    while parent[s] is not None:
        steps.append((parent[s][1], s))
        s = parent[s][0]
    steps.reverse()
    for i, (text, s) in enumerate(steps, 1):
        lines.append(f"step {i}: {text} -> {show(s)}")
    return lines + [f"answer: {len(steps)}"]


# ----------------------------------------------------------------------------- A* for crossings

def astar(start, succ, h, goal, key=lambda s: s):
    """Returns (path as [(text, state)], expanded) or (None, expanded).  See the conventions."""
    counter = itertools.count()
    heap = [(h(start), next(counter), 0, start)]
    best = {key(start): 0}
    parent = {key(start): None}
    closed = set()
    expanded = 0
    while heap:
        _, _, g, s = heapq.heappop(heap)
        k = key(s)
        if k in closed:
            continue
        closed.add(k)
        expanded += 1
        if goal(s):
            path = []
            while parent[k] is not None:
                pk, text, st = parent[k]
                path.append((text, st))
                k = pk
            return path[::-1], expanded
        for text, t in succ(s):
            kt = key(t)
            if kt in closed:
                continue
            if kt in best and best[kt] <= g + 1:
                continue
            best[kt] = g + 1
            parent[kt] = (k, text, t)
            heapq.heappush(heap, (g + 1 + h(t), next(counter), g + 1, t))
    return None, expanded


def bfs_length(start, succ, goal):
    """Plain BFS (no heuristic, no tie rules): the length of a shortest solution, or None."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        s, d = queue.popleft()
        if goal(s):
            return d
        for _, t in succ(s):
            if t not in seen:
                seen.add(t)
                queue.append((t, d + 1))
    return None


def crossing_h(n_left, boat_left, boat):
    """Lower bound on crossings (see missionaries.ds)."""
    if n_left == 0:
        return 0
    if boat == 1:
        return 1 if boat_left else 2
    if boat_left:
        return 2 * max(1, math.ceil((n_left - 1) / (boat - 1))) - 1
    return 2 * math.ceil(n_left / (boat - 1))


def three_wholes(args, count, usage):
    if len(args) != count:
        return None, ["expected three numbers" if count == 3 else "expected two numbers", usage]
    vals = [whole(a) for a in args]
    if any(v is None or v < 0 for v in vals):
        return None, ["the arguments must be whole numbers >= 0", usage]
    if vals[-1] < 1:
        return None, ["the boat must take at least one person", usage]
    return [int(v) for v in vals], None


# ----------------------------------------------------------------------------- missionaries

def mc_problem(M, C, B):
    """State (missionaries on the left, cannibals on the left, boat on the left?)."""
    def safe(m, c):
        return m == 0 or m >= c

    def people(n, one, many):
        return f"{n} {one if n == 1 else many}"

    def succ(s):
        m, c, left = s
        out = []
        for nm in range(B + 1):
            for nc in range(B - nm + 1):
                if nm + nc == 0:
                    continue
                hm, hc = (m, c) if left else (M - m, C - c)
                if nm > hm or nc > hc:
                    continue
                t = (m - nm, c - nc, False) if left else (m + nm, c + nc, True)
                if not (safe(t[0], t[1]) and safe(M - t[0], C - t[1])):
                    continue
                who = people(nc, "cannibal", "cannibals") if nm == 0 else people(nm, "missionary", "missionaries")
                if nm > 0 and nc > 0:
                    who += " and " + people(nc, "cannibal", "cannibals")
                out.append((who + " to the " + ("right" if left else "left"), t))
        return out
    start = (M, C, True)
    goal = lambda s: s[0] + s[1] == 0
    h = lambda s: crossing_h(s[0] + s[1], s[2], B)
    return start, succ, goal, h, safe


def missionaries(args):
    usage = "usage: ds missionaries.ds [MISSIONARIES CANNIBALS BOAT]   (e.g. 3 3 2)"
    M, C, B = 3, 3, 2
    if args:
        vals, err = three_wholes(args, 3, usage)
        if err:
            return err
        M, C, B = vals
    start, succ, goal, h, safe = mc_problem(M, C, B)
    line = lambda s: f"left {s[0]}M {s[1]}C, right {M - s[0]}M {C - s[1]}C"
    lines = [f"missionaries: {M}, cannibals: {C}, boat for {B}", "start: " + line(start)]
    if not safe(M, C):
        return lines + ["the cannibals outnumber the missionaries already at the start", "answer: none"]
    return lines + crossing_report(astar(start, succ, h, goal), line)


def crossing_report(search, line):
    """The A* count, the crossings with the state after each, and the answer line."""
    path, expanded = search
    lines = [f"A*: {expanded} states expanded"]
    if path is None:
        return lines + ["no sequence of crossings gets everybody across", "answer: none"]
    for i, (text, s) in enumerate(path, 1):
        lines.append(f"crossing {i}: {text} -> {line(s)}")
    return lines + [f"answer: {len(path)}"]


# ----------------------------------------------------------------------------- knights

def knights_problem(P, B):
    """State (frozenset of people on the left, boat on the left?); people 'k1'.., 's1'.."""
    people = [f"k{i}" for i in range(1, P + 1)] + [f"s{i}" for i in range(1, P + 1)]

    def safe(group):
        knights = {p for p in group if p[0] == "k"}
        for p in group:
            if p[0] == "s" and knights and ("k" + p[1:]) not in knights:
                return False
        return True

    def succ(s):
        left_set, left = s
        here = [p for p in people if (p in left_set) == left]
        out = []
        for size in range(1, min(B, len(here)) + 1):
            for group in itertools.combinations(here, size):
                g = set(group)
                if not safe(g):
                    continue
                new_left = left_set - g if left else left_set | g
                from_bank = [p for p in people if (p in new_left) == left]
                to_bank = [p for p in people if (p in new_left) != left]
                if not (safe(from_bank) and safe(to_bank)):
                    continue
                out.append((" ".join(group) + " to the " + ("right" if left else "left"),
                            (frozenset(new_left), not left)))
        return out
    start = (frozenset(people), True)
    goal = lambda s: not s[0]
    h = lambda s: crossing_h(len(s[0]), s[1], B)
    return people, start, succ, goal, h


def knights(args):
    usage = "usage: ds knights.ds [PAIRS BOAT]   (e.g. 3 2)"
    P, B = 3, 2
    if args:
        vals, err = three_wholes(args, 2, usage)
        if err:
            return err
        P, B = vals
    people, start, succ, goal, h = knights_problem(P, B)
    names = lambda lst: " ".join(lst) if lst else "-"
    line = lambda s: ("left " + names([p for p in people if p in s[0]])
                      + " | right " + names([p for p in people if p not in s[0]]))
    lines = [f"knights with their squires: {P}, boat for {B}", "start: " + line(start)]
    return lines + crossing_report(astar(start, succ, h, goal), line)


# ----------------------------------------------------------------------------- hanoi

def hanoi_succ(s):
    """s[i] = peg of disc i+1.  Moves From -> To over A, B, C."""
    out = []
    for f in "ABC":
        on_f = [i for i, p in enumerate(s) if p == f]
        if not on_f:
            continue
        d = min(on_f)
        for t in "ABC":
            if t == f:
                continue
            on_t = [i for i, p in enumerate(s) if p == t]
            if on_t and min(on_t) < d:
                continue
            u = list(s); u[d] = t
            out.append((f"disc d{d + 1} from {f} to {t}", tuple(u)))
    return out


def hanoi_plan(n, f, t, v, out):
    if n == 0:
        return
    hanoi_plan(n - 1, f, v, t, out)
    out.append((f, t))
    hanoi_plan(n - 1, v, t, f, out)


def hanoi(args):
    usage = "usage: ds hanoi.ds [DISCS]   (a whole number from 0 to 50)"
    n = 3
    if len(args) > 1:
        return ["expected one number", usage]
    if args:
        try:
            x = float(args[0])
        except ValueError:
            return ["the number of discs must be a whole number", usage]
        if x < 0 or x > 50 or x != math.floor(x):
            return ["the number of discs must be a whole number from 0 to 50", usage]
        n = int(x)
    moves = lambda k: f"{k} move" if k == 1 else f"{k} moves"
    lines = [f"discs: {n}, from peg A to peg C"]
    if n > 6:
        return lines + [f"the recursive plan: {moves(2 ** n - 1)} (moves are listed and searched for up to 6 discs)",
                        f"answer: {2 ** n - 1}"]
    plan = []
    hanoi_plan(n, "A", "C", "B", plan)
    state = ("A",) * n
    listed = []
    for i, (f, t) in enumerate(plan, 1):
        d = min(j for j, p in enumerate(state) if p == f)
        assert all(p != t for p in state[:d]), "illegal move in the plan"
        text = f"disc d{d + 1} from {f} to {t}"
        state = state[:d] + (t,) + state[d + 1:]
        listed.append(text)
        lines.append(f"move {i}: {text}")
    lines.append(f"the recursive plan: {moves(len(plan))}, all discs on C: "
                 + ("yes" if all(p == "C" for p in state) else "no"))
    h = lambda s: sum(1 for p in s if p != "C")
    path, expanded = astar(("A",) * n, hanoi_succ, h, lambda s: h(s) == 0)
    lines.append(f"A* over the world states: {moves(len(path))}, states expanded: {expanded}")
    lines.append("A* finds " + ("the same moves" if [t for t, _ in path] == listed else "other moves"))
    return lines + [f"answer: {len(path)}"]


# ----------------------------------------------------------------------------- games

VARIANTS = {
    3: ("chip", (5, 2), ["3,0", "0,3", "0,4"], ">=", 13),
    4: ("chip", (3, 2), ["3,0", "0,2", "0,4"], ">", 12),
    5: ("chip", (0, -5), ["4,0", "0,4", "4,4"], ">=", 13),
    6: ("heaps", (1, 2), ["*3", "+2"], ">=", 17),
    7: ("heaps", (6, 5), ["*2", "*3"], ">=", 48),      # printed "less than 48", read "at least"
    8: ("heaps", (3, 6), ["*2", "+2"], ">=", 24),
    9: ("heaps", (2, 3, 4), ["min*2", "all+1"], ">=", 23),
    10: ("heaps", (3, 4), ["*2", "+3"], ">=", 23),
    11: ("heaps", (2, 3), ["*3", "+3"], ">=", 33),
    12: ("heaps", (2, 4), ["*2", "all+2"], ">=", 24),
    13: ("heaps", (3, 5), ["*2", "+2"], ">=", 23),
    14: ("heaps", (3, 4, 5), ["min1*2", "max1+2"], ">=", 23),
}


def heap_rule(code):
    for scope in ("all", "min1", "min", "max1", ""):
        if not code.startswith(scope):
            continue
        op, k = code[len(scope):len(scope) + 1], whole(code[len(scope) + 1:]) if code[len(scope) + 1:] else None
        if k is None:
            continue
        if op == "*" and k >= 2 and scope not in ("all", "max1"):
            return scope, op, int(k)
        if op == "+" and k >= 1 and scope not in ("min", "min1"):
            return scope, op, int(k)
    return None


def game_moves(game, p):
    kind, _, codes, _, _ = game
    show = lambda q: ",".join(str(x) for x in q)
    out = []
    if kind == "chip":
        for m in codes:
            dx, dy = (int(float(x)) for x in m.split(","))
            q = (p[0] + dx, p[1] + dy)
            out.append((f"by ({m}) to ({show(q)})", q))
        return out
    least, most = min(p), max(p)
    for m in codes:
        scope, op, k = heap_rule(m)
        f = (lambda x: x * k) if op == "*" else (lambda x: x + k)
        if scope in ("all", "min"):
            q = tuple(f(x) if scope == "all" or x == least else x for x in p)
            out.append((f"{m}: {show(p)} -> {show(q)}", q))
            continue
        for i, x in enumerate(p):
            if scope == "min1" and x != least or scope == "max1" and x != most:
                continue
            q = p[:i] + (f(x),) + p[i + 1:]
            out.append((f"{m} on heap {i + 1}: {show(p)} -> {show(q)}", q))
    return out


def game_won(game, p):
    kind, _, _, op, bound = game
    v, b = (p[0] ** 2 + p[1] ** 2, bound ** 2) if kind == "chip" else (sum(p), bound)
    return v >= b if op == ">=" else v > b


def game_solve(title, game):
    kind, start, codes, op, bound = game
    show = lambda q: ",".join(str(x) for x in q)
    cond = "at least " if op == ">=" else "more than "
    if kind == "chip":
        lines = [f"{title}: a chip at ({show(start)}); a move shifts it by " + " or ".join(f"({m})" for m in codes),
                 f"the player who moves it to a distance of {cond}{bound} from (0,0) wins"]
    else:
        def text(m):
            scope, o, k = heap_rule(m)
            what = "multiply " if o == "*" else f"add {k} to "
            tail = f" by {k}" if o == "*" else ""
            where = {"": "one heap", "all": "every heap", "min": "every smallest heap",
                     "min1": "one smallest heap", "max1": "one largest heap"}[scope]
            return what + where + tail
        lines = [f"{title}: heaps {show(start)}; a move: " + ", or ".join(text(m) for m in codes),
                 f"the player who makes the total {cond}{bound} wins"]
    if game_won(game, start):
        return lines + ["the start already meets the condition: nobody can win by a move"], "none"
    memo = {}

    def wins(p):
        if p not in memo:
            memo[p] = any(winning(q) for _, q in game_moves(game, p))
        return memo[p]

    def winning(q):
        return game_won(game, q) or not wins(q)
    first = [t for t, q in game_moves(game, start) if winning(q)]
    if not first:
        lines.append("winner: second")
        for t, q in game_moves(game, start):
            for rt, r in game_moves(game, q):
                if winning(r):
                    lines.append(f"first move {t}, winning reply {rt}")
                    break
        return lines, "second"
    lines.append("winner: first")
    lines += [f"winning first move: {t}" for t in first]
    return lines, "first"


def game_retrograde(game):
    """Independent check: label every reachable position bottom-up (largest first)."""
    seen, stack = {game[1]}, [game[1]]
    while stack:
        p = stack.pop()
        if game_won(game, p):
            continue
        for _, q in game_moves(game, p):
            if q not in seen:
                seen.add(q)
                stack.append(q)
    win = {}
    for p in sorted(seen, key=lambda q: -sum(q)):           # every move makes the sum grow
        if not game_won(game, p):
            win[p] = any(game_won(game, q) or not win[q] for _, q in game_moves(game, p))
    return "first" if win[game[1]] else "second"


def games(args):
    usage = ['usage: ds games.ds [VARIANT | all | chip X,Y "DX,DY ..." OP BOUND | heaps A,B,.. "MOVE ..." OP BOUND]',
             "       VARIANT is 3 .. 14; OP is >= or >"]
    args = list(args) or ["3"]
    if args == ["all"]:
        lines, answers = [], []
        for n in range(3, 15):
            if n > 3:
                lines.append("")
            block, winner = game_solve(f"variant {n}", VARIANTS[n])
            lines += block
            answers.append(f"{n}={winner}")
        return lines + ["answer: " + " ".join(answers)]
    if len(args) == 1:
        n = whole(args[0])
        if n is None or int(n) not in VARIANTS:
            return [f"no variant {args[0]} (there are 3 .. 14)"] + usage
        block, winner = game_solve(f"variant {int(n)}", VARIANTS[int(n)])
        return block + [f"answer: {winner}"]
    if len(args) == 5 and args[0] in ("chip", "heaps"):
        kind = args[0]
        moves = [m for m in args[2].split(" ") if m != ""]
        pieces = [whole(x) for x in args[1].split(",")]
        start = None if any(x is None for x in pieces) else tuple(int(x) for x in pieces)
        bound = whole(args[4])

        def wrong():
            if args[3] not in (">=", ">"):
                return "the condition must be >= or >"
            if bound is None:
                return "the bound must be a whole number"
            if start is None:
                return "the start must be whole numbers separated by commas"
            if kind == "chip":
                if len(start) != 2:
                    return "a chip is at X,Y"
                for m in moves:
                    v = [whole(x) for x in m.split(",")]
                    if any(x is None for x in v) or len(v) != 2:
                        return "a chip move is DX,DY"
                    if v[0] < 0 or v[1] < 0 or v[0] + v[1] == 0:
                        return "a chip move must not decrease x or y and must move the chip: " + m
            else:
                if any(h < 1 for h in start):
                    return "every heap must hold at least one stone"
                for m in moves:
                    if heap_rule(m) is None:
                        return "not a heap move: " + m
            if not moves:
                return "a game needs at least one move"
            return ""
        w = wrong()
        if w:
            return [w] + usage
        block, winner = game_solve("your game", (kind, start, moves, args[3], int(bound)))
        return block + [f"answer: {winner}"]
    return ["unexpected arguments"] + usage


# ----------------------------------------------------------------------------- roads

def read_roads(path):
    order, length, pos, roads = [], {}, {}, 0

    def town(t):
        if t not in order:
            order.append(t)
    with open(path) as f:
        for no, line in enumerate(f.read().split("\n"), 1):
            line = line.rstrip("\r")
            if "#" in line:
                line = line[:line.index("#")]
            words = [w for w in line.replace("\t", " ").split(" ") if w != ""]
            if not words:
                continue
            if len(words) == 3:
                try:
                    ln = float(words[2])
                except ValueError:
                    return f"{path}, line {no}: the length is not a number"
                if ln < 0:
                    return f"{path}, line {no}: a length cannot be negative"
                a, b = words[0], words[1]
                if (a, b) not in length or length[(a, b)] > ln:
                    length[(a, b)] = length[(b, a)] = ln
                    town(a)
                    town(b)
                roads += 1
            elif len(words) == 4 and words[0] == "at":
                try:
                    pos[words[1]] = (float(words[2]), float(words[3]))
                except ValueError:
                    return f"{path}, line {no}: a position is two numbers"
                town(words[1])
            else:
                return f"{path}, line {no}: expected `TOWN TOWN LENGTH` or `at TOWN X Y`"
    return order, length, pos, roads


def straight(pos, a, b):
    dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
    return math.sqrt(dx * dx + dy * dy)


def road_search(order, length, h, frm, to):
    nbrs = {t: [u for u in order if (t, u) in length] for t in order}
    g, parent, settled, open_ = {frm: 0}, {frm: None}, set(), [frm]
    count = 0
    while open_:
        i = 0
        for j in range(1, len(open_)):
            if g[open_[j]] + h[open_[j]] < g[open_[i]] + h[open_[i]]:
                i = j
        t = open_.pop(i)
        settled.add(t)
        count += 1
        if t == to:
            path = [to]
            while parent[path[0]] is not None:
                path.insert(0, parent[path[0]])
            return path, g[to], count
        for u in nbrs[t]:
            if u in settled:
                continue
            ng = g[t] + length[(t, u)]
            if u in g and g[u] <= ng:
                continue
            if u not in g:
                open_.append(u)
            g[u] = ng
            parent[u] = t
    return None, None, count


def floyd(order, length):
    d = {(a, b): (0.0 if a == b else length.get((a, b), math.inf)) for a in order for b in order}
    for k in order:
        for a in order:
            for b in order:
                if d[(a, k)] + d[(k, b)] < d[(a, b)]:
                    d[(a, b)] = d[(a, k)] + d[(k, b)]
    return d


def roads(args, check=False):
    usage = "usage: ds roads.ds [FILE FROM TO]   (e.g. data/towns.roads 1 8)"
    name, path, frm, to = "data/romania.roads", os.path.join(ROOT, "scripts/data/romania.roads"), "Arad", "Bucharest"
    if args:
        if len(args) != 3:
            return ["expected FILE FROM TO", usage]
        name, frm, to = args
        path = os.path.join(ROOT, name)          # the golden test runs in the project root
    got = read_roads(path)
    if isinstance(got, str):
        return [got.replace(path, name), usage]
    order, length, pos, nroads = got
    lines = [f"map {name}: {len(order)} towns, {nroads} roads", f"from {frm} to {to}"]
    missing = [t for t in (frm, to) if t not in order]
    if missing:
        return lines + [f"there is no town {t} on the map" for t in missing] + ["answer: none"]

    def report(title, res):
        p, ln, c = res
        if p is None:
            return f"{title}: no way, towns settled: {c}"
        return f"{title}: {' - '.join(p)}, length {num(ln)}, towns settled: {c}"
    zero = {t: 0 for t in order}
    dij = road_search(order, length, zero, frm, to)
    lines.append(report("Dijkstra", dij))
    why = ""
    if not pos:
        why = "the map gives no positions"
    else:
        for t in order:
            if t not in pos:
                why = f"town {t} has no position"
                break
    if not why:
        for t in order:
            for u in order:
                if (t, u) in length and length[(t, u)] < straight(pos, t, u):
                    why = f"the road {t} - {u} is shorter than the straight line"
                    break
            if why:
                break
    if why:
        a = road_search(order, length, zero, frm, to)
        lines.append(report(f"A* (H = 0: {why})", a))
    else:
        a = road_search(order, length, {t: straight(pos, t, to) for t in order}, frm, to)
        lines.append(report("A* (H = straight-line distance)", a))
    if check:
        d = floyd(order, length)[(frm, to)]
        assert (dij[1] is None) == (d == math.inf) and (dij[1] is None or abs(dij[1] - d) < 1e-9), (args, dij, d)
        assert a[1] == dij[1], (args, a, dij)
    lines.append("answer: " + ("none" if dij[1] is None else num(dij[1])))
    return lines


# ----------------------------------------------------------------------------- driver

# ----------------------------------------------------------------------------- search_problems.ds
# The same problems through the Search module (tests/oracle/search_oracle.py models it). The
# states are what the script's states are equal by: the jugs' amounts; for the crossing, the
# bank of each person in node order (m1.., c1..) and the boat's (the script's graphs hold the
# individuals); for Hanoi the peg of each disc d1..dN.

SEARCH_ALGORITHMS = ["bfs", "dfs", "iddfs", "ucs", "astar", "idastar", "greedy"]


def search_report(start, succ, goal, h):
    rows = search_oracle.compare_rows([(a, a, h) for a in SEARCH_ALGORITHMS], start, succ, goal)
    out = search_oracle.compare_table(rows)
    lengths = [r["length"] for r in rows if r["algorithm"] in ("bfs", "iddfs", "ucs", "astar", "idastar")]
    if any(x != lengths[0] for x in lengths):
        return out + ["answer: the optimal algorithms disagree: [%s]" % ",".join(
            "None" if x is None else str(x) for x in lengths)]
    return out + ["answer: " + ("none" if lengths[0] is None else str(lengths[0]))]


def sp_jugs(caps, start, goal):
    def succ(s):
        out = []
        for i in range(len(s)):
            for j in range(len(s)):
                a = min(s[i], caps[j] - s[j])
                if i != j and a > 0:
                    t = list(s); t[i] -= a; t[j] += a
                    out.append((f"pour jug {i + 1} into jug {j + 1}", tuple(t), 1))
        return out
    reached = lambda s: all(g < 0 or x == g for x, g in zip(s, goal))
    show = lambda xs: ",".join("_" if x < 0 else str(x) for x in xs)
    head = "== water jugs %s: %s -> %s" % (show(caps), show(start), show(goal))
    return [head] + search_report(tuple(start), succ, reached, lambda s: 0)


def sp_missionaries(M, C, B):
    kinds = ["m"] * M + ["c"] * C                # people in node order; bank 0 = left, 1 = right

    def counts(banks, bank):
        m = sum(1 for k, x in zip(kinds, banks) if k == "m" and x == bank)
        return m, sum(1 for k, x in zip(kinds, banks) if k == "c" and x == bank)

    def safe(banks, bank):
        m, c = counts(banks, bank)
        return m == 0 or m >= c

    def succ(s):
        banks, boat = s
        out = []
        for nm in range(B + 1):
            for nc in range(B - nm + 1):
                if nm + nc == 0:
                    continue
                t = list(banks)
                need = {"m": nm, "c": nc}
                for i, k in enumerate(kinds):       # the first ones on the boat's bank cross
                    if t[i] == boat and need[k] > 0:
                        t[i] = 1 - boat
                        need[k] -= 1
                if need["m"] or need["c"] or not safe(t, 0) or not safe(t, 1):
                    continue
                out.append(("%dm%dc" % (nm, nc), (tuple(t), 1 - boat), 1))
        return out

    def left(s):
        return sum(counts(s[0], 0))

    def h(s):
        n, boat_left = left(s), s[1] == 0
        if n == 0:
            return 0
        if B == 1:
            return 1 if boat_left else 2
        if boat_left:
            return 2 * max(1, math.ceil((n - 1) / (B - 1))) - 1
        return 2 * math.ceil(n / (B - 1))

    head = "== missionaries and cannibals: %d and %d, a boat for %d" % (M, C, B)
    return [head] + search_report(((0,) * (M + C), 0), succ, lambda s: left(s) == 0, h)


def sp_hanoi(n):
    def top(s, peg):
        on = [d for d in range(n) if s[d] == peg]
        return min(on) if on else None

    def succ(s):
        out = []
        for f in "ABC":
            for t in "ABC":
                if f == t:
                    continue
                d = top(s, f)
                if d is None:
                    continue
                e = top(s, t)
                if e is not None and e < d:
                    continue
                u = list(s); u[d] = t
                out.append((f + t, tuple(u), 1))
        return out

    off_c = lambda s: sum(1 for p in s if p != "C")
    head = "== Tower of Hanoi, %d discs" % n
    return [head] + search_report(("A",) * n, succ, lambda s: off_c(s) == 0, off_c)


def search_problems(args):
    usage = ["usage: search_problems.ds [jugs CAPS START GOAL | missionaries M C BOAT | hanoi N]"]
    if not args:
        return sp_jugs([8, 5, 3], [8, 0, 0], [4, 4, -1]) + [""] + sp_missionaries(3, 3, 2) + [""] + sp_hanoi(3)
    def numbers(text, any_ok):
        out = []
        for p in text.split(","):
            p = p.strip()
            if any_ok and p == "_":
                out.append(-1)
            elif p.isdigit():
                out.append(int(p))
            else:
                return None
        return out
    if args[0] == "jugs" and len(args) == 4:
        caps, start, goal = numbers(args[1], False), numbers(args[2], False), numbers(args[3], True)
        if None in (caps, start, goal) or not (len(caps) == len(start) == len(goal)):
            return usage
        return sp_jugs(caps, start, goal)
    if args[0] == "missionaries" and len(args) == 4 and all(a.isdigit() for a in args[1:]) and int(args[3]) >= 1:
        return sp_missionaries(int(args[1]), int(args[2]), int(args[3]))
    if args[0] == "hanoi" and len(args) == 2 and args[1].isdigit():
        return sp_hanoi(int(args[1]))
    return usage


def expected(name, args):
    return "\n".join(globals()[name](args)) + "\n"


def cases():
    """(name, args, .out path) for every NAME.out and NAME@CASE.args of the six scripts."""
    exp = os.path.join(ROOT, "tests/expected")
    out = [(n, [], os.path.join(exp, f"{n}.out")) for n in NAMES]
    for f in sorted(os.listdir(exp)):
        if f.endswith(".args") and f.split("@")[0] in NAMES:
            with open(os.path.join(exp, f)) as fh:
                args = [l.rstrip("\n") for l in fh if not l.startswith("#")]
            out.append((f.split("@")[0], args, os.path.join(exp, f[:-5] + ".out")))
    return out


def selftest():
    assert missionaries([])[-1] == "answer: 11"
    assert knights([])[-1] == "answer: 11"
    assert jugs([])[-1] == "answer: 7"
    assert jugs(["--tap", "3,5", "0,0", "_,4"])[-1] == "answer: 6"
    assert roads([])[-1] == "answer: 418"
    for n in range(0, 7):
        assert hanoi([str(n)])[-1] == f"answer: {2 ** n - 1}"
        goal = lambda s: all(p == "C" for p in s)
        assert bfs_length(("A",) * n, hanoi_succ, goal) == 2 ** n - 1
    for M, C, B in [(3, 3, 2), (4, 4, 2), (4, 4, 3), (5, 5, 3), (6, 6, 3), (2, 2, 1), (10, 10, 4), (1, 1, 1)]:
        start, succ, goal, h, safe = mc_problem(M, C, B)
        path, _ = astar(start, succ, h, goal)
        assert (None if path is None else len(path)) == bfs_length(start, succ, goal), (M, C, B)
    for P, B in [(3, 2), (4, 2), (4, 3), (5, 3), (6, 3), (2, 1), (3, 3)]:
        _, start, succ, goal, h = knights_problem(P, B)
        path, _ = astar(start, succ, h, goal)
        assert (None if path is None else len(path)) == bfs_length(start, succ, goal), (P, B)
    for n, game in VARIANTS.items():
        _, winner = game_solve("", game)
        assert winner == game_retrograde(game), n
    for name, args, _ in cases():
        if name == "roads":
            roads(args, check=True)
    # Through the Search module: the known answers by every optimal algorithm
    assert search_problems([])[-1] == "answer: 7"
    assert search_problems(["jugs", "8,5,3", "8,0,0", "4,4,_"])[-1] == "answer: 7"
    assert search_problems(["missionaries", "3", "3", "2"])[-1] == "answer: 11"
    for n in range(1, 5):   # (0 discs: the start is the goal, which bfs does not test)
        assert search_problems(["hanoi", str(n)])[-1] == f"answer: {2 ** n - 1}"
    search_oracle.selftest()
    print("selftest: ok")


def main(argv):
    if argv[:1] == ["--selftest"]:
        selftest()
        return 0
    if argv[:1] == ["--all"]:
        write, bad = "--write" in argv, 0
        for name, args, path in cases():
            want = expected(name, args)
            if write:
                with open(path, "w") as f:
                    f.write(want)
                continue
            try:
                with open(path) as f:
                    have = f.read()
            except OSError:
                have = None
            if have != want:
                bad += 1
                print(f"DIFFERS: {path}")
        print(f"{len(cases())} cases, {bad} differ" if not write else f"wrote {len(cases())} files")
        return 1 if bad else 0
    if argv and argv[0] in NAMES:
        sys.stdout.write(expected(argv[0], argv[1:]))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
