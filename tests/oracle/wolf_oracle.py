#!/usr/bin/env python3
"""Independent oracle for the generalised wolf-goat-cabbage program (seed 003, scripts/wolf*.ds).

This is a re-simulation, written from the seed's prose and code blocks, of the demons
`place`, `take`, `put`, `move`, `all_actions`, `target_state` and `solver`, with the
semantics fixed in docs/language.md ("Decisions"):

* a failed two-argument `exists` is False (decision 1), so `!exists(...)` is True;
* a world state is the set of its (source, relation, target, value) facts; `G == H`
  compares those sets (names ignored); setting an edge to Undef removes the fact;
* graph-condition `for` loops and `exists` visit the nodes of the current graph's class
  in declaration (creation) order;
* `Open.pop()` takes the LAST element, `Open.unshift(x)` inserts at the FRONT,
  `Close.is(G)` is a membership test by content equality;
* a node prints with its declared name (decision 12), so names read `Start;f.t.g;f.m.$2`.

It does not use (or know about) the Rust interpreter. It prints exactly the standard
output of the corresponding .ds script: the solver's line `Close: <Close.size()> <Open.size()>`
(only when a solution is found) and then the solution graph's name or `Can't find solution`.

Usage:
    wolf_oracle.py WORLD.json                 print the expected output
    wolf_oracle.py WORLD.json --trace         also print search statistics to stderr
    wolf_oracle.py WORLD.json --linear        use a literal linear Close.is (slow, same result)
    wolf_oracle.py WORLD.json --check-script SCRIPT.ds
                                             check that SCRIPT's world section declares the
                                             same world as WORLD.json (exit 1 if not)
    wolf_oracle.py WORLD.json --search        also what the Search.bfs part of wolf_search.ds prints
    wolf_oracle.py --selftest                 reproduce the two authoritative answers
    wolf_oracle.py --all [--write]            selftest, then for every worlds/NAME.json: check that
                                             scripts/NAME.ds declares that world and carries the
                                             demons of scripts/wolf.ds (which must be the seed's),
                                             and compare (or --write) tests/expected/NAME.out;
                                             also scripts/wolf_search.ds (world wolf.json, the
                                             demons of wolf.ds followed by its Search.bfs part)

World JSON (see tests/oracle/worlds/):
    {
      "nodes":   ["f", "w", "g", "c", "$1", "$2"],     # declaration order of Start's class
      "humans":  ["f"],
      "animals": ["w", "g", "c"],
      "places":  ["$1", "$2"],
      "want":    [["w", "g"], ["g", "c"]],
      "link":    [["$1", "$2"], ["$2", "$1"]],
      "on":      {"f": "$1", "w": "$1", "g": "$1", "c": "$1"},
      "hold":    []                                    # optional [[human, animal], ...]
    }
The target place is the node literally named `$2` (target_state hard-codes it).
Only standard library; Python 3.8+.
"""

import json
import os
import re
import sys

# Relation names.  Cross-graph isa edges (x isa Sen=>$human) are kept as facts too, so that
# state equality really is equality of the complete fact set; they are the same in every
# state, as are want and link, so only `on` and `hold` ever differ between states.
ISA, ON, HOLD, WANT, LINK = "isa", "on", "hold", "want", "link"
SEN = {"human": "Sen.$human", "animal": "Sen.$animal", "place": "Sen.$place"}


class World:
    """The node class shared by all states: node names in declaration order."""

    def __init__(self, spec):
        self.names = list(spec["nodes"])
        if len(set(self.names)) != len(self.names):
            raise ValueError("duplicate node names")
        self.idx = {n: i for i, n in enumerate(self.names)}
        self.nodes = range(len(self.names))          # node-id order = declaration order
        for key in ("humans", "animals", "places"):
            for n in spec.get(key, []):
                if n not in self.idx:
                    raise ValueError("%s: unknown node %s" % (key, n))
        if "$2" not in self.idx:
            raise ValueError("target_state needs a node named $2")
        self.target = self.idx["$2"]

    def start_facts(self, spec):
        facts = set()
        ix = self.idx
        # [f] isa Sen=>$human; [w,g,c] isa Sen=>$animal; [$1,$2] isa Sen=>$place;
        for kind, key in (("human", "humans"), ("animal", "animals"), ("place", "places")):
            for n in spec.get(key, []):
                facts.add((ix[n], ISA, SEN[kind], True))
        for a, b in spec.get("want", []):
            facts.add((ix[a], WANT, ix[b], True))
        for a, b in spec.get("link", []):
            facts.add((ix[a], LINK, ix[b], True))
        for x, p in spec.get("on", {}).items():
            facts.add((ix[x], ON, ix[p], True))
        for h, a in spec.get("hold", []):
            facts.add((ix[h], HOLD, ix[a], True))
        return facts


class Graph:
    """One state: a name and a set of facts (source, relation, target, value)."""

    __slots__ = ("name", "facts", "_key")

    def __init__(self, name, facts):
        self.name = name
        self.facts = facts
        self._key = None

    def copy(self):                                   # G.copy(): same name, same facts
        return Graph(self.name, set(self.facts))

    def key(self):                                    # content only; the name takes no part
        if self._key is None:
            self._key = frozenset(self.facts)
        return self._key

    def __eq__(self, other):
        return isinstance(other, Graph) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    # Edge query X rel Y: True only when a True fact is stored (missing = Undef).
    def edge(self, x, rel, y):
        return (x, rel, y, True) in self.facts

    def set_true(self, x, rel, y):                    # statement `X rel Y`
        self._key = None
        self.facts.add((x, rel, y, True))

    def set_undef(self, x, rel, y):                   # `X rel Y = Undef` removes the fact
        self._key = None
        self.facts.discard((x, rel, y, True))


class Program:
    def __init__(self, world):
        self.W = world

    # X.isa(Sen=>$kind): True when the isa edge is there, Undef otherwise (never False);
    # only "exactly True" matters in every place the seed uses it.
    def isa(self, G, x, kind):
        return G.edge(x, ISA, SEN[kind])

    def exists(self, G, cond):
        """exists(V, Cond): first node (declaration order) where Cond is True, else None (False)."""
        for z in self.W.nodes:
            if cond(z):
                return z
        return None

    # def place(G, X) { GRAPH = G; if exists(Z, X on Z) : return Z }   -> Undef (None) otherwise
    def place(self, G, X):
        return self.exists(G, lambda z: G.edge(X, ON, z))

    # def take(G, H, A)
    def take(self, G, H, A):
        if self.exists(G, lambda z: G.edge(H, HOLD, z)) is not None:
            return False                              # H already carries something
        P = self.place(G, H)
        if P is None or not G.edge(A, ON, P):         # (A on P) != True   (A on Undef -> Undef)
            return False
        G.set_true(H, HOLD, A)                        # H hold A;
        G.set_undef(A, ON, P)                         # A on P = Undef
        return True

    # def put(G, H)
    def put(self, G, H):
        Z = self.exists(G, lambda z: G.edge(H, HOLD, z))
        if Z is None:                                 # !exists(...) is True
            return False
        G.set_undef(H, HOLD, Z)                       # H hold Z = Undef
        P = self.place(G, H)
        if P is None:
            raise RuntimeError("put: human without a place (not reachable in these worlds)")
        G.set_true(Z, ON, P)                          # Z on P;
        return True

    # def move(G, H, P2)
    def move(self, G, H, P2):
        P1 = self.place(G, H)
        if P1 == P2:                                  # (None == node is False, as in the language)
            return False
        if P1 is None or not G.edge(P1, LINK, P2):    # (P1 link P2) != True
            return False
        other = self.exists(G, lambda F: self.isa(G, F, "human") and G.edge(F, ON, P1) and F != H)
        if other is None:                             # nobody else stays on P1
            for A in self.W.nodes:                    # for A in A.isa(Sen=>$animal)
                if not self.isa(G, A, "animal"):
                    continue
                if not G.edge(A, ON, P1):             # if (A on P1) != True : continue
                    continue
                for B in self.W.nodes:                # for B in (A want B) & (B on P1) : return False
                    if G.edge(A, WANT, B) and G.edge(B, ON, P1):
                        return False
        G.set_undef(H, ON, P1)                        # H on P1 = Undef;
        G.set_true(H, ON, P2)                         # H on P2;
        return True

    # def all_actions(G)
    def all_actions(self, G):
        W = self.W
        graphs = []
        nxt = G.copy()
        for H in W.nodes:
            if not self.isa(G, H, "human"):
                continue
            if self.put(nxt, H):
                nxt.name = nxt.name + ";" + W.names[H] + ".p"
                graphs.append(nxt)
                nxt = G.copy()
            for A in W.nodes:
                if not self.isa(G, A, "animal"):
                    continue
                if self.take(nxt, H, A):
                    nxt.name = nxt.name + ";" + W.names[H] + ".t." + W.names[A]
                    graphs.append(nxt)
                    nxt = G.copy()
            for P in W.nodes:
                if not self.isa(G, P, "place"):
                    continue
                if self.move(nxt, H, P):
                    nxt.name = nxt.name + ";" + W.names[H] + ".m." + W.names[P]
                    graphs.append(nxt)
                    nxt = G.copy()
        return graphs

    # def target_state(G)
    def target_state(self, G):
        T = self.W.target
        for X in self.W.nodes:
            if not (self.isa(G, X, "human") or self.isa(G, X, "animal")):
                continue
            if not G.edge(X, ON, T):                  # (X on $2) != True
                return False
            if self.exists(G, lambda z: G.edge(X, HOLD, z)) is not None:
                return False
        return True

    # def solver(Start)
    def solver(self, start, out, linear=False, stats=None):
        Open = [start]
        Close = [start]
        seen = {start}                                # mirror of Close for O(1) Close.is
        expanded = 0
        while Open:                                   # while !Open.empty()
            G = Open.pop()                            # from the end
            expanded += 1
            for Gi in self.all_actions(G):
                if self.target_state(Gi):
                    out.append("Close: %d %d" % (len(Close), len(Open)))
                    if stats is not None:
                        stats["expanded"] = expanded
                    return Gi
                if linear:
                    visited = any(Gi == C for C in Close)
                else:
                    visited = Gi in seen
                if visited:
                    continue
                Open.insert(0, Gi)                    # Open.unshift(Gi)
                Close.append(Gi)                      # Close.push(Gi)
                seen.add(Gi)
        if stats is not None:
            stats["expanded"] = expanded
            stats["close"] = len(Close)
        return None                                   # demon falls off the end: Undef


    # Search.bfs(Start, all_actions, target_state), as docs/search.md defines it: breadth-first,
    # level by level, states numbered in discovery order (0 is the start), the goal tested when
    # a state is first generated; the start is not tested as such, but a successor equal to it
    # is tested once. Counts: expanded (all_actions calls), generated (successors returned),
    # duplicates (successors already stored), max frontier (before each expansion: the states
    # of this level from the one expanded on, plus those of the next level so far), depth
    # (deepest level stored), states (stored).
    def library_bfs(self, start, key=lambda g: g):
        """`key`: what makes two states one (with symmetry: their canonical form)."""
        states, index = [start], {key(start): 0}
        st = dict(expanded=0, generated=0, duplicates=0, max_frontier=0, depth=0)
        start_checked = False
        level, nxt, depth = 0, 1, 0
        found = None
        while level < nxt and found is None:
            for i in range(level, nxt):
                st["max_frontier"] = max(st["max_frontier"], (nxt - i) + (len(states) - nxt))
                succ = self.all_actions(states[i])
                st["expanded"] += 1
                st["generated"] += len(succ)
                for Gi in succ:
                    k = key(Gi)
                    if k in index:
                        st["duplicates"] += 1
                        if index[k] == 0 and not start_checked:
                            start_checked = True
                            if self.target_state(Gi):
                                found = Gi
                                break
                        continue
                    index[k] = len(states)
                    states.append(Gi)
                    st["depth"] = max(st["depth"], depth + 1)
                    if self.target_state(Gi):
                        found = Gi
                        break
                if found is not None:
                    break
            level, nxt, depth = nxt, len(states), depth + 1
        st["states"] = len(states)
        return found, st

    # Search.explore(Start, all_actions, {"goal": target_state}): every reachable state,
    # numbered in discovery order, every transition, and the goal states.
    def explore(self, start, key=lambda g: g):
        index = {key(start): 0}
        queue = [start]
        transitions = 0
        goals = [0] if self.target_state(start) else []
        for G in queue:
            for Gi in self.all_actions(G):
                transitions += 1
                k = key(Gi)
                if k not in index:
                    index[k] = len(queue)
                    queue.append(Gi)
                    if self.target_state(Gi):
                        goals.append(index[k])
        return len(queue), transitions, goals


def symmetric_key(world, names):
    """Search's `symmetry`: a state's class under every renaming of the nodes `names`, as the
    least of its renamed fact sets (the brute force that ds's canonical form must agree with)."""
    import itertools
    nodes = [world.idx[n] for n in names]
    perms = [dict(zip(nodes, p)) for p in itertools.permutations(nodes)]

    def key(g):
        return min(tuple(sorted((m.get(a, a), r, m.get(b, b) if isinstance(b, int) else b, v)
                                for a, r, b, v in g.facts)) for m in perms)
    return key


def symmetry_lines(spec, names):
    """What scripts/wolf_symmetry.ds prints (but its `time:` line)."""
    world = World(spec)
    start = Graph("Start", world.start_facts(spec))
    program = Program(world)
    key = symmetric_key(world, names)
    runs = [program.library_bfs(start), program.library_bfs(start, key)]
    lines = []
    for title, (found, st) in zip(("without symmetry: ", "with symmetry:    "), runs):
        st["actions"] = 0 if found is None else len(found.name.split(";")) - 1
        lines.append(title + "%(actions)d actions; %(states)d states stored, %(expanded)d expanded, "
                     "%(generated)d generated" % st)
    lines.append("the same length: " + ("True" if runs[0][1]["actions"] == runs[1][1]["actions"] else "False"))
    lines += ["no solution" if found is None else found.name for found, _ in runs]
    sizes = [program.explore(start)[0], program.explore(start, key)[0]]
    lines.append("Search.explore: %d states without symmetry, %d with" % tuple(sizes))
    return lines


def search_lines(spec, finish):
    """What scripts/wolf_search.ds prints after the seed's solver (whose result is `finish`)."""
    world = World(spec)
    start = Graph("Start", world.start_facts(spec))
    program = Program(world)
    found, st = program.library_bfs(start)
    n, transitions, goals = program.explore(start)
    actions = found.name.split(";")[1:] if found is not None else []
    same = (found is None and finish is None) or (found is not None and found == finish)
    return [
        "Search.bfs: " + (found.name if found is not None else "no solution (exhausted)"),
        "the same state as the solver's: " + ("True" if same else "False"),
        "actions (%d): %s" % (len(actions), " ".join(actions)),
        "expanded: %(expanded)d, generated: %(generated)d, duplicates: %(duplicates)d" % st,
        "max frontier: %(max_frontier)d, depth: %(depth)d, states stored: %(states)d" % st,
        "Search.explore: %d states, %d transitions, goal states [%s]" % (n, transitions, ",".join(map(str, goals))),
    ]


def run(spec, linear=False, trace=False, search=False):
    world = World(spec)
    start = Graph("Start", world.start_facts(spec))
    out = []
    stats = {}
    finish = Program(world).solver(start, out, linear=linear, stats=stats)
    out.append("Can't find solution" if finish is None else finish.name)
    if search:
        out += search_lines(spec, finish)
    if trace:
        print("expanded states: %s, stats: %s" % (stats.get("expanded"), stats), file=sys.stderr)
    return out


# --------------------------------------------------------------------------------------
# --check-script: a deliberately small reader of the world section of a wolf*.ds script
# (everything before `def place`).  It understands only the statement forms the seed uses:
#   nodes a, b, c            [a, b] isa Sen=>$kind;      a want b      a link b      a on b
#   for X in X.isa(Sen=>$human) | X.isa(Sen=>$animal):  X on $P   (the seed's loop)
# and is used to make sure each shipped script and its world JSON describe the same world.
# --------------------------------------------------------------------------------------

def parse_world_section(text):
    head = text.split("def place", 1)[0]
    stmts = []
    for line in head.splitlines():
        line = line.split("//", 1)[0]
        for s in line.split(";"):
            s = s.strip()
            if s:
                stmts.append(s)
    spec = {"nodes": [], "humans": [], "animals": [], "places": [], "want": [], "link": [],
            "on": {}, "hold": []}
    kinds = {"$human": "humans", "$animal": "animals", "$place": "places"}
    seen_start = False
    i = 0
    while i < len(stmts):
        s = stmts[i]
        i += 1
        m = re.fullmatch(r"GRAPH\s*=\s*(\w+)", s)
        if m:
            seen_start = m.group(1) == "Start"
            continue
        m = re.fullmatch(r"nodes\s+(.*)", s)
        if m and seen_start:
            spec["nodes"] += [n.strip() for n in m.group(1).split(",")]
            continue
        m = re.fullmatch(r"\[([^\]]*)\]\s+isa\s+Sen=>(\$\w+)", s)
        if m:
            spec[kinds[m.group(2)]] += [n.strip() for n in m.group(1).split(",")]
            continue
        m = re.fullmatch(r"(\$?\w+)\s+isa\s+Sen=>(\$\w+)", s)
        if m:
            spec[kinds[m.group(2)]].append(m.group(1))
            continue
        m = re.fullmatch(r"for X in X\.isa\(Sen=>\$human\) \| X\.isa\(Sen=>\$animal\)\s*:(.*)", s)
        if m:
            body = m.group(1).strip() or stmts[i]
            if not m.group(1).strip():
                i += 1
            mb = re.fullmatch(r"X\s+on\s+(\$?\w+)", body)
            if not mb:
                raise ValueError("unexpected loop body: %r" % body)
            movable = {resolve_name(spec["nodes"], n) for n in spec["humans"] + spec["animals"]}
            for n in spec["nodes"]:
                if n in movable:
                    spec["on"][n] = mb.group(1)
            continue
        m = re.fullmatch(r"(\$?\w+)\s+(want|link|on|hold)\s+(\$?\w+)", s)
        if m and m.group(1) not in ("edges", "nodes"):
            a, rel, b = m.groups()
            if rel == "on":
                spec["on"][a] = b
            else:
                spec[rel].append([a, b])
            continue
        # everything else (edges, var, global, Sen.nodes, verbose) is not world data
    return spec


def resolve_name(nodes, n):
    """Decision 12: `$s` names the node declared as `s` when there is no node `$s`."""
    if n in nodes:
        return n
    if n.startswith("$") and n[1:] in nodes:
        return n[1:]
    return n


def normalise(spec):
    def resolve(n):
        return resolve_name(spec["nodes"], n)
    out = {"nodes": list(spec["nodes"])}
    for k in ("humans", "animals", "places"):
        out[k] = sorted(resolve(n) for n in spec.get(k, []))
    for k in ("want", "link", "hold"):
        out[k] = sorted([resolve(a), resolve(b)] for a, b in spec.get(k, []))
    out["on"] = {resolve(a): resolve(b) for a, b in spec.get("on", {}).items()}
    return out


def check_script(spec, path):
    with open(path, encoding="utf-8") as f:
        got = normalise(parse_world_section(f.read()))
    want = normalise(spec)
    if got != want:
        print("world mismatch for %s:\n  script: %s\n  json:   %s" % (path, got, want), file=sys.stderr)
        return False
    return True


# --------------------------------------------------------------------------------------

CLASSIC = {
    "nodes": ["f", "w", "g", "c", "$1", "$2"],
    "humans": ["f"], "animals": ["w", "g", "c"], "places": ["$1", "$2"],
    "want": [["w", "g"], ["g", "c"]],
    "link": [["$1", "$2"], ["$2", "$1"]],
    "on": {"f": "$1", "w": "$1", "g": "$1", "c": "$1"},
}
KNOWN = [
    (CLASSIC, ["Close: 27 0",
               "Start;f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;"
               "f.m.$1;f.t.g;f.m.$2;f.p"]),
    (dict(CLASSIC, nodes=CLASSIC["nodes"] + ["s"], humans=["f", "s"],
          on=dict(CLASSIC["on"], s="$1")),
     ["Close: 154 8",
      "Start;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p"]),
]


def selftest():
    ok = True
    for spec, expected in KNOWN:
        for linear in (False, True):
            got = run(spec, linear=linear)
            if got != expected:
                ok = False
                print("MISMATCH (linear=%s)\n  got:      %s\n  expected: %s" % (linear, got, expected))
    print("selftest: " + ("ok" if ok else "FAILED"))
    return ok


# --------------------------------------------------------------------------------------
# --all: every tests/oracle/worlds/NAME.json against scripts/NAME.ds and tests/expected/NAME.out
# --------------------------------------------------------------------------------------

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# The seed's demon code blocks (seed 003, lines 54-58, 64-74, 76-85, 95-113, 119-144, 148-156
# and 162-184), in order, blank lines between them and trailing blanks removed.
SEED = os.path.join(HERE, "seed003_demons.txt")
PRINT_SEED = '         out "Close:",Close.size()'
PRINT_OURS = '         out "Close:",Close.size(), Open.size()'


def script_text(path):
    """A script with its `#include`s written out, each included file without the comment
    lines that open it (the wolf_* scripts include the seed's demons from scripts/wolf/)."""
    out = []
    for line in open(path, encoding="utf-8").read().splitlines(True):
        if line.startswith("#include "):
            included = script_text(os.path.join(os.path.dirname(path), line.split('"')[1])).splitlines(True)
            while included and included[0].startswith("//"):
                included.pop(0)
            out.extend(included)
        else:
            out.append(line)
    return "".join(out)


def demon_section(text):
    """From `def place` to the end of the file, trailing blanks of each line removed."""
    return "\n".join(l.rstrip() for l in ("def place" + text.split("def place", 1)[1]).split("\n"))


def seed_demons():
    """The seed's demon code blocks, in order, with the one agreed change to the print line."""
    with open(SEED, encoding="utf-8") as f:
        text = f.read().rstrip("\n")
    assert text.count(PRINT_SEED + "\n") == 1
    return text.replace(PRINT_SEED + "\n", PRINT_OURS + "\n")


def check_all(write):
    ok = selftest()
    names = sorted(f[:-5] for f in os.listdir(os.path.join(HERE, "worlds")) if f.endswith(".json"))
    with open(os.path.join(REPO, "scripts", "wolf.ds"), encoding="utf-8") as f:
        reference = demon_section(f.read())
    if not os.path.exists(SEED):
        ok = False
        print("%s is missing: the demons of scripts/wolf.ds cannot be compared with the seed's" % SEED)
    elif not reference.startswith(seed_demons()):
        ok = False
        print("scripts/wolf.ds: demons differ from the seed's code blocks")
    for name in names:
        with open(os.path.join(HERE, "worlds", name + ".json"), encoding="utf-8") as f:
            spec = json.load(f)
        script = os.path.join(REPO, "scripts", name + ".ds")
        text = script_text(script)
        if demon_section(text) != reference:
            ok = False
            print("%s: demons or final lines differ from scripts/wolf.ds" % name)
        if not check_script(spec, script):
            ok = False
        lines = run(spec)
        expected = "".join(l + "\n" for l in lines)
        out_path = os.path.join(REPO, "tests", "expected", name + ".out")
        if write:
            with open(out_path, "w", encoding="utf-8", newline="\n") as f:
                f.write(expected)
        else:
            try:
                with open(out_path, encoding="utf-8") as f:
                    current = f.read()
            except OSError:
                current = None
            if current != expected:
                ok = False
                print("%s: tests/expected/%s.out differs from the oracle" % (name, name))
        print("%-18s %s" % (name, " | ".join(lines)))
    ok = check_search_script(reference, write) and ok
    ok = check_symmetry_script(reference, write) and ok
    print("all: " + ("ok" if ok else "FAILED"))
    return ok


def check_search_script(reference, write):
    """scripts/wolf_search.ds: the world of worlds/wolf.json, the demons and final lines of
    scripts/wolf.ds, then the Search.bfs part; its expected output from this oracle."""
    ok = True
    with open(os.path.join(HERE, "worlds", "wolf.json"), encoding="utf-8") as f:
        spec = json.load(f)
    script = os.path.join(REPO, "scripts", "wolf_search.ds")
    text = script_text(script)
    if not demon_section(text).startswith(reference):
        ok = False
        print("wolf_search: the demons differ from scripts/wolf.ds")
    ok = check_script(spec, script) and ok
    lines = run(spec, search=True)
    ok = compare_expected("wolf_search", lines, write) and ok
    print("%-18s %s" % ("wolf_search", " | ".join(lines[2:4])))
    return ok


def check_symmetry_script(reference, write):
    """scripts/wolf_symmetry.ds: the world of bench/programs/wolf_crowd.json (three farmers),
    the seed's demons up to target_state, then bfs and explore with and without symmetry."""
    ok = True
    with open(os.path.join(REPO, "bench", "programs", "wolf_crowd.json"), encoding="utf-8") as f:
        spec = json.load(f)
    script = os.path.join(REPO, "scripts", "wolf_symmetry.ds")
    text = script_text(script)
    if not reference.startswith(demon_section(text.split("// ----", 1)[0]).rstrip()):
        ok = False
        print("wolf_symmetry: the demons differ from scripts/wolf.ds")
    ok = check_script(spec, script) and ok
    lines = symmetry_lines(spec, spec["humans"])
    ok = compare_expected("wolf_symmetry", lines, write) and ok
    print("%-18s %s" % ("wolf_symmetry", " | ".join(lines[:2])))
    return ok


def compare_expected(name, lines, write):
    expected = "".join(l + "\n" for l in lines)
    out_path = os.path.join(REPO, "tests", "expected", name + ".out")
    if write:
        with open(out_path, "w", encoding="utf-8", newline="\n") as f:
            f.write(expected)
        return True
    try:
        with open(out_path, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    # `time:` lines hold CPU times; the golden test leaves them out too
    current = None if current is None else "".join(
        l + "\n" for l in current.split("\n")[:-1] if not l.startswith("time:"))
    if current != expected:
        print("%s: tests/expected/%s.out differs from the oracle" % (name, name))
        return False
    return True


def main(argv):
    if "--selftest" in argv:
        return 0 if selftest() else 1
    if "--all" in argv:
        return 0 if check_all("--write" in argv) else 1
    args = [a for a in argv if not a.startswith("--")]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        spec = json.load(f)
    if "--check-script" in argv:
        script = argv[argv.index("--check-script") + 1]
        return 0 if check_script(spec, script) else 1
    for line in run(spec, linear="--linear" in argv, trace="--trace" in argv, search="--search" in argv):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
