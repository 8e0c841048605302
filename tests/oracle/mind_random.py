#!/usr/bin/env python3
"""Cross-check ds's Mind module against mind_oracle.py on random worlds and axioms.

Each case is 2 or 3 nodes, a few random True/False facts along two relations r and s, and 1
to 3 random clauses of 1 to 3 literals (edge literals, positive or negative, and identities)
over the variables X, Y, Z and the nodes. ds must print what the oracle's naive grounding and
brute force compute for: the number of models over r, one pass of `set` with all the clauses,
and `Mind.set_graph` (edges set, or -1, and the facts afterwards).

Usage: mind_random.py [--n 200] [--seed 1] [--ds target/release/ds]
"""

import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import mind_oracle as O  # noqa: E402

# The relation ids of this script's world: the built-in ones, then r and s.
O.RELS[:] = ["isa", "attr", "has", "obj", "sub", "unit", "r", "s"]


def random_case(rng):
    nodes = ["n%d" % i for i in range(rng.randrange(2, 4))]
    facts = {}
    for _ in range(rng.randrange(0, 6)):
        facts[(rng.choice(nodes), rng.choice("rs"), rng.choice(nodes))] = rng.random() < 0.6
    clauses = []
    for _ in range(rng.randrange(1, 4)):
        names = ["X", "Y", "Z"][: rng.randrange(1, 4)]
        term = lambda: rng.choice(nodes) if rng.random() < 0.2 else rng.choice(names)
        lits = []
        for _ in range(rng.randrange(1, 4)):
            if rng.random() < 0.15:
                lits.append(O.S(term(), term(), rng.random() < 0.5))
            else:
                lits.append(O.E(rng.choice("rs"), term(), term(), rng.random() < 0.5))
        clauses.append(O.Clause(*lits))
    return nodes, facts, clauses


def script(nodes, facts, clauses):
    axioms = [c.text() for c in clauses]
    lines = ["edges r, s", 'var G = GRAPH("G")', "GRAPH = G", "nodes " + ", ".join(nodes)]
    lines += ["%s %s%s %s" % (a, "" if v else "!", r, b) for (a, r, b), v in facts.items()]
    lines += ["Mind.add(%s)" % a for a in axioms]
    lines += ["var H = G.copy()", "out Mind.count_models(G, r)", "out set(%s), G.str()" % ", ".join(axioms),
              "GRAPH = H", "out Mind.set_graph(H), H.str()"]
    return "\n".join(lines) + "\n"


def sentences(facts, nodes):
    out = ""
    for k in sorted(facts, key=lambda k: O.order_key(k, nodes)):
        out += ("%s %s %s . " if facts[k] else "%s  not %s %s . ") % (k[0], k[1], k[2])
    return out


def expected(nodes, facts, clauses):
    w = O.World("G", nodes)
    w.facts = dict(facts)
    lines = [str(len(O.models(w, clauses, ["r"])))]
    for passes in (1, None):
        after = dict(facts)
        r = O.propagate(after, clauses, nodes, passes=passes)
        lines.append("%d %s" % (-1 if r == O.CONFLICT else len(r), sentences(after, nodes)))
    return "".join(line + "\n" for line in lines)


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    n, seed = int(opt("--n", "200")), int(opt("--seed", "1"))
    ds = opt("--ds", os.path.join(ROOT, "target", "release", "ds"))
    rng = random.Random(seed)
    bad = 0
    for i in range(n):
        case = random_case(rng)
        src = script(*case)
        got = subprocess.run([ds, "-e", src], capture_output=True, text=True)
        want = expected(*case)
        if got.stdout != want:
            bad += 1
            print("case %d differs:\n%s--- expected\n%s--- ds\n%s%s" % (i, src, want, got.stdout, got.stderr))
    print("%d of %d cases differ" % (bad, n))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
