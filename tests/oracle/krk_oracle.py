#!/usr/bin/env python3
"""Oracle for scripts/krk.ds: king and rook against king by Bratko's AL0 advice table (seed 002).

A separate Python implementation of what krk.ds is specified to do; it shares no code with the
script or with the interpreter. It prints exactly the standard output krk.ds must print for the
same arguments: the header, the start board, one line per move pair with the advice followed,
the final board and `answer: N`.

What it implements (the decisions are those of scripts/krk.ds, documented there and in
docs/problems.md, section "King and rook against king"):
  * AL0 (Bratko, fig. 15.6): a piece of advice is satisfiable in a position if there is a
    forcing tree in which White's moves obey "our moves", every Black reply allowed by "their
    moves" is answered, the holding goal holds at every node and the better goal at every leaf;
    White follows the tree until it ends, then consults the rules again;
  * the KRK advice table (fig. 15.7) with "not stalemate" added to every holding goal;
  * move orders: king steps diagonal first (++, +-, -+, --, then +0, -0, 0+, 0-); rook moves by
    I = 1..8, the file square before the rank square; White's legal moves: king, then rook;
  * the stubborn defender: takes the rook if it can, else the reply with the largest region the
    black king can walk to, then the one nearest the centre, then the first in move order;
  * the random defender: Math.randomSeed(seed) and Math.randrange(0, n - 1) of the ds runtime,
    reproduced here (xorshift64*, see crates/core/src/builtins/math.rs). Only the random cases depend on it.

The rules of chess used here are checked separately, and without any of this strategy code, by
tests/oracle/krk_check.py.

Usage:
    krk_oracle.py [WK WR BK] [--defender stubborn|random] [--seed N]   expected stdout
    krk_oracle.py --all [--write]    compare (or write) tests/expected/krk*.out for every case
    krk_oracle.py --exhaustive       every legal position against every defender (about 2 min)
    krk_oracle.py --exhaustive --book   the same for the table exactly as printed (no "not stalemate")
"""

import math
import os
import struct
import sys

FILES = "abcdefgh"
STEPS = [(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]


def fx(s): return s % 8
def fy(s): return s // 8
def name(s): return FILES[fx(s)] + str(fy(s) + 1)


def parse_square(t):
    if len(t) != 2 or t[0] not in FILES or t[1] not in "12345678":
        return -1
    return FILES.index(t[0]) + 8 * (int(t[1]) - 1)


AROUND = []
for _s in range(64):
    _l = []
    for _dx, _dy in STEPS:
        _x, _y = fx(_s) + _dx, fy(_s) + _dy
        if 0 <= _x < 8 and 0 <= _y < 8:
            _l.append(_x + 8 * _y)
    AROUND.append(_l)


def dist(a, b): return max(abs(fx(a) - fx(b)), abs(fy(a) - fy(b)))
def manh(a, b): return abs(fx(a) - fx(b)) + abs(fy(a) - fy(b))
def ordered(a, b, c): return a < b < c or c < b < a


def inway(a, b, c):
    if fy(a) == fy(b) == fy(c): return ordered(fx(a), fx(b), fx(c))
    if fx(a) == fx(b) == fx(c): return ordered(fy(a), fy(b), fy(c))
    return False


# A position is (side, wk, wr, bk, depth): side 0 White to move, 1 Black; wr == bk: rook taken.
def rook_attacks(wk, wr, s):
    if s == wr or (fx(s) != fx(wr) and fy(s) != fy(wr)):
        return False
    return not inway(wr, wk, s)


def attacked(p, s):
    if dist(p[1], s) <= 1: return True
    if p[2] == p[3]: return False
    return rook_attacks(p[1], p[2], s)


def in_check(p): return attacked(p, p[3])


def black_moves(p):
    return [(p[3], b, (0, p[1], p[2], b, p[4] + 1)) for b in AROUND[p[3]] if not attacked(p, b)]


def king_moves(p):
    if p[0] != 0: return []
    return [(p[1], w, (1, w, p[2], p[3], p[4] + 1)) for w in AROUND[p[1]] if w != p[2] and dist(w, p[3]) > 1]


def rook_moves(p):
    side, wk, wr, bk, d = p
    if side != 0 or wr == bk: return []
    res = []
    for i in range(8):
        for t in (fx(wr) + 8 * i, i + 8 * fy(wr)):
            if t in (wr, wk, bk) or inway(wr, wk, t) or inway(wr, bk, t):
                continue
            res.append((wr, t, (1, wk, t, bk, d + 1)))
    return res


def check_moves(p): return [m for m in rook_moves(p) if in_check(m[2])]
def legal_moves(p): return black_moves(p) if p[0] == 1 else king_moves(p) + rook_moves(p)
def mate(p): return p[0] == 1 and in_check(p) and not black_moves(p)
def stalemate(p): return p[0] == 1 and not in_check(p) and not black_moves(p)


def legal_start(wk, wr, bk):
    return len({wk, wr, bk}) == 3 and dist(wk, bk) > 1 and not rook_attacks(wk, wr, bk)


# ---------------------------------------------------------------- predicates (Bratko's library)
def room(p):
    rx, ry, bx, by = fx(p[2]), fy(p[2]), fx(p[3]), fy(p[3])
    if bx == rx or by == ry: return 64
    return (rx if bx < rx else 7 - rx) * (ry if by < ry else 7 - ry)


def rook_exposed(p):
    guard, attack = dist(p[1], p[2]), dist(p[3], p[2])
    return guard > attack + 1 if p[0] == 0 else guard > attack


def rook_lost(p):
    return p[2] == p[3] or (p[0] == 1 and dist(p[3], p[2]) == 1 and dist(p[1], p[2]) > 1)


def rook_divides(p):
    return ordered(fx(p[1]), fx(p[2]), fx(p[3])) or ordered(fy(p[1]), fy(p[2]), fy(p[3]))


def critical_distance(p):
    rx, ry = fx(p[2]), fy(p[2])
    cx = rx - 1 if fx(p[3]) < rx else rx + 1
    cy = ry - 1 if fy(p[3]) < ry else ry + 1
    return abs(fx(p[1]) - cx) + abs(fy(p[1]) - cy)


def on_edge(s): return fx(s) in (0, 7) or fy(s) in (0, 7)


GOALS = {
    "mate": lambda p, r: mate(p),
    "stalemate": lambda p, r: stalemate(p),
    "rooklost": lambda p, r: rook_lost(p),
    "rookexposed": lambda p, r: rook_exposed(p),
    "newroomsmaller": lambda p, r: room(p) < room(r),
    "rookdivides": lambda p, r: rook_divides(p),
    "okapproachedcsquare": lambda p, r: critical_distance(p) < critical_distance(r),
    "lpatt": lambda p, r: manh(p[1], p[3]) == 2 and manh(p[2], p[3]) == 3,
    "okorndle": lambda p, r: dist(p[1], p[2]) <= dist(r[1], r[2]),
    "roomgt2": lambda p, r: room(p) > 2,
    "their_king_edge": lambda p, r: on_edge(p[3]),
    "our_king_edge": lambda p, r: on_edge(p[1]),
    "kings_close": lambda p, r: dist(p[1], p[3]) < 4,
    "themtomove": lambda p, r: p[0] == 1,
    "anycase": lambda p, r: True,
}
GENERATORS = {
    "legal": legal_moves, "kingdiagfirst": king_moves, "rookmove": rook_moves,
    "checkmove": check_moves, "nomove": lambda p: [],
}


# ---------------------------------------------------------------- AL0
def parse_goal(text):
    toks = text.replace("(", " ( ").replace(")", " ) ").split()
    pos = [0]

    def peek(): return toks[pos[0]] if pos[0] < len(toks) else ""

    def take():
        t = peek(); pos[0] += 1; return t

    def g_or():
        g = g_and()
        while peek() == "or":
            take(); g = ("or", g, g_and())
        return g

    def g_and():
        g = g_not()
        while peek() == "and":
            take(); g = ("and", g, g_not())
        return g

    def g_not():
        t = take()
        if t == "not": return ("not", g_not())
        if t == "(":
            g = g_or()
            if take() != ")": raise ValueError(text)
            return g
        return ("is", GOALS[t])

    g = g_or()
    if peek() != "": raise ValueError(text)
    return g


def holds(g, p, r):
    if g[0] == "is": return g[1](p, r)
    if g[0] == "not": return not holds(g[1], p, r)
    if g[0] == "and": return holds(g[1], p, r) and holds(g[2], p, r)
    return holds(g[1], p, r) or holds(g[2], p, r)


def parse_moves(text):
    alts = []
    for alt in text.split(" then "):
        tests, gen = [], None
        for part in alt.split(" and "):
            w = part.replace("(", " ").replace(")", " ").split()
            if w[0] == "depth": tests.append((w[1], int(w[2])))
            else: gen = GENERATORS[w[0]]
        alts.append((tests, gen))
    return alts


def allowed(c, p):
    res = []
    for tests, gen in c:
        if all(p[4] == n if op == "=" else p[4] < n for op, n in tests):
            res += gen(p)
    return res


def make_table(book=False):
    hold = "not rooklost" if book else "not rooklost and not stalemate"
    t = {
        "mate_in_2": ("mate", hold + " and their_king_edge",
                      "(depth = 0) and legal then (depth = 2) and checkmove", "(depth = 1) and legal"),
        "squeeze": ("newroomsmaller and not rookexposed and rookdivides and not stalemate", hold,
                    "(depth = 0) and rookmove", "nomove"),
        "approach": ("okapproachedcsquare and not rookexposed and not stalemate and (rookdivides or lpatt)"
                     " and (roomgt2 or not our_king_edge)", hold, "(depth = 0) and kingdiagfirst", "nomove"),
        "keeproom": ("themtomove and not rookexposed and rookdivides and okorndle and (roomgt2 or not our_king_edge)",
                     hold, "(depth = 0) and kingdiagfirst", "nomove"),
        "divide_in_2": ("themtomove and rookdivides and not rookexposed", hold,
                        "(depth < 3) and legal", "(depth < 2) and legal"),
        "divide_in_3": ("themtomove and rookdivides and not rookexposed", hold,
                        "(depth < 5) and legal", "(depth < 4) and legal"),
    }
    return {k: (parse_goal(b), parse_goal(h), parse_moves(u), parse_moves(th)) for k, (b, h, u, th) in t.items()}


ADVICE = make_table()
RULES = [(parse_goal("their_king_edge and kings_close"),
          ["mate_in_2", "squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3"]),
         (parse_goal("anycase"), ["squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3"])]

# Trees: () leaf; ("w", move, subtree) our node; dict {to: subtree} their node.
LEAF = ()


def sat(a, p, r):
    better, holding, ours, theirs = a
    if not holds(holding, p, r): return None
    if holds(better, p, r): return LEAF
    if p[0] == 0:
        for m in allowed(ours, p):
            t = sat(a, m[2], r)
            if t is not None: return ("w", m, t)
        return None
    replies = allowed(theirs, p)
    if not replies: return None
    tree = {}
    for m in replies:
        t = sat(a, m[2], r)
        if t is None: return None
        tree[m[1]] = t
    return tree


def strategy(p, advice=None):
    advice = advice or ADVICE
    for cond, names in RULES:
        if holds(cond, p, p):
            for n in names:
                t = sat(advice[n], p, p)
                if t is not None: return n, t
            return None
    return None


# ---------------------------------------------------------------- defenders
def region(p):
    seen, todo = {p[3]}, [p[3]]
    while todo:
        s = todo.pop()
        for n in AROUND[s]:
            if n not in seen and not attacked(p, n):
                seen.add(n); todo.append(n)
    return len(seen)


def off_centre(s): return abs(2 * fx(s) - 7) + abs(2 * fy(s) - 7) - 2


def stubborn(p):
    best, key = None, None
    for m in black_moves(p):
        q = m[2]
        if q[2] == q[3]: return m
        k = (region(q), -off_centre(q[3]))
        if key is None or k > key:
            best, key = m, k
    return best


class DsRandom:
    """Math.randomSeed / Math.randrange of the ds runtime (xorshift64*)."""
    MASK = (1 << 64) - 1

    def __init__(self, seed):
        bits = struct.unpack("<Q", struct.pack("<d", float(seed)))[0]
        self.x = max(bits ^ 0x9E3779B97F4A7C15, 1)

    def random(self):
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & self.MASK
        x ^= x >> 27
        self.x = x
        return (((x * 0x2545F4914F6CDD1D) & self.MASK) >> 11) / float(1 << 53)

    def randrange(self, start, stop):
        return start + math.floor(self.random() * (stop - start + 1))


# ---------------------------------------------------------------- the game as krk.ds prints it
def num(x):
    return str(int(x)) if float(x) == int(x) else repr(float(x))


def board(wk, wr, bk):
    lines = []
    for rank in range(7, -1, -1):
        row = str(rank + 1)
        for f in range(8):
            s = f + 8 * rank
            row += " " + ("K" if s == wk else "R" if s == wr else "k" if s == bk else ".")
        lines.append(row)
    lines.append("  a b c d e f g h")
    return lines


def notation(letter, m):
    q = m[2]
    text = letter + name(m[0]) + ("x" if q[2] == q[3] else "-") + name(m[1])
    if mate(q): return text + "#"
    if q[0] == 1 and in_check(q): return text + "+"
    return text


def move_line(n, white, black, why):
    return ("%2d." % n) + " " + white.ljust(9) + black.ljust(9) + why


def play(wk, wr, bk, defender="stubborn", seed=1, max_moves=50):
    """Returns (lines, moves or -1)."""
    rng = DsRandom(seed)
    out = []
    p = (0, wk, wr, bk, 0)
    tree, advice_name, n = LEAF, "", 0
    while n < max_moves:
        p = (0, p[1], p[2], p[3], 0)
        why = advice_name + " (continued)"
        if tree == LEAF:
            found = strategy(p)
            if found is None:
                out.append("no piece of advice is satisfiable"); return out, -1
            advice_name, tree = found
            why = advice_name
        _, m, tree = tree
        n += 1
        letter = "K" if m[0] == p[1] else "R"
        q = m[2]
        if mate(q):
            out.append(move_line(n, notation(letter, m), "", why))
            out += board(q[1], q[2], q[3])
            return out, n
        if stalemate(q):
            out.append(move_line(n, notation(letter, m), "", why + ": stalemate")); return out, -1
        reply = stubborn(q)
        if defender == "random":
            ms = black_moves(q)
            reply = ms[rng.randrange(0, len(ms) - 1)]
        out.append(move_line(n, notation(letter, m), notation("K", reply), why))
        if reply[2][2] == reply[2][3]:
            out.append("the rook is lost"); return out, -1
        tree = tree.get(reply[1], LEAF) if isinstance(tree, dict) else LEAF
        p = reply[2]
    out.append("no mate in %d moves" % max_moves)
    return out, -1


USAGE = "usage: ds scripts/krk.ds [WK WR BK] [--defender stubborn|random] [--seed N]"


def expected_output(args):
    given, defender, seed, i = [], "stubborn", 1.0, 0
    while i < len(args):
        a = args[i]
        if a == "--defender" and i + 1 < len(args):
            defender = args[i + 1]; i += 1
        elif a == "--seed" and i + 1 < len(args):
            seed = float(args[i + 1]); i += 1
        else:
            given.append(a)
        i += 1
    if not given: given = ["e1", "a1", "e8"]
    sq = [parse_square(g) for g in given]
    if len(sq) != 3 or min(sq) < 0 or defender not in ("stubborn", "random") or not legal_start(*sq):
        raise SystemExit("the oracle only covers valid arguments")
    who = defender if defender == "stubborn" else "random (seed %s)" % num(seed)
    lines = ["King and rook against king (Bratko's advice table in AL0)",
             "White: K%s R%s; Black: K%s; White to move; defender: %s" % (given[0], given[1], given[2], who)]
    lines += board(*sq)
    moves, n = play(*sq, defender=defender, seed=seed)
    lines += moves
    lines.append("answer: %d" % n if n >= 0 else "answer: none")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- every position, every defender
def exhaustive(book=False):
    """For every legal position with White to move: the most White moves any defender can force
    before mate, following the table (forcing trees included). A failure (no advice, stalemate,
    rook taken, or a cycle the defender can force) counts as infinite."""
    import threading
    advice = make_table(book)
    INF = 10 ** 6
    memo, on_path, fails = {}, set(), {}

    def fresh(p):                      # White to move, no tree: consult the table
        key = p[1:4]
        if key in memo: return memo[key]
        if key in on_path: return INF  # the defender can force a cycle
        on_path.add(key)
        found = strategy((0, p[1], p[2], p[3], 0), advice)
        if found is None:
            fails.setdefault("no advice", key); r = INF
        else:
            r = follow(found[1])
        on_path.discard(key)
        memo[key] = r
        return r

    def follow(tree):
        _, m, sub = tree
        q = m[2]
        if mate(q): return 1
        if stalemate(q):
            fails.setdefault("stalemate", q[1:4]); return INF
        worst = 0
        for r in black_moves(q):
            if r[2][2] == r[2][3]:
                fails.setdefault("rook lost", q[1:4]); return INF
            v = fresh(r[2]) if not isinstance(sub, dict) else follow(sub[r[1]])
            worst = max(worst, v)
            if worst >= INF: break
        return 1 + worst

    result = {}

    def run():
        hist, n = {}, 0
        for wk in range(64):
            for wr in range(64):
                for bk in range(64):
                    if legal_start(wk, wr, bk):
                        v = fresh((0, wk, wr, bk, 0)); n += 1
                        hist[v] = hist.get(v, 0) + 1
        result.update(hist=hist, n=n)

    sys.setrecursionlimit(100000)
    threading.stack_size(512 * 1024 * 1024)
    th = threading.Thread(target=run); th.start(); th.join()
    hist, n = result["hist"], result["n"]
    bad = sum(c for v, c in hist.items() if v >= INF)
    good = {v: c for v, c in hist.items() if v < INF}
    worst = max(good)
    print("legal positions with White to move:", n)
    print("failures:", bad, {k: tuple(name(s) for s in v) for k, v in fails.items()})
    print("longest forced game (White moves):", worst,
          [tuple(name(s) for s in k) for k, v in memo.items() if v == worst][:4])
    print("mean of the forced maximum over positions: %.2f" % (sum(v * c for v, c in good.items()) / sum(good.values())))
    return bad == 0 and worst <= 50


HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "..", "expected")


def all_cases(write=False):
    ok = True
    cases = [("krk", [])]
    for f in sorted(os.listdir(EXPECTED)):
        if f.startswith("krk@") and f.endswith(".args"):
            with open(os.path.join(EXPECTED, f)) as fh:
                cases.append((f[:-5], [l.strip() for l in fh if l.strip()]))
    for case, args in cases:
        text = expected_output(args)
        path = os.path.join(EXPECTED, case + ".out")
        if write:
            with open(path, "w") as fh: fh.write(text)
            print("wrote", path)
        else:
            have = open(path).read() if os.path.exists(path) else None
            print(("ok   " if have == text else "DIFF ") + case)
            ok = ok and have == text
    return ok


if __name__ == "__main__":
    a = sys.argv[1:]
    if a and a[0] == "--all":
        sys.exit(0 if all_cases("--write" in a) else 1)
    if a and a[0] == "--exhaustive":
        sys.exit(0 if exhaustive("--book" in a) else 1)
    sys.stdout.write(expected_output(a))
