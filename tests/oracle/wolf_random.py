#!/usr/bin/env python3
"""Cross-check ds against the wolf oracle on random worlds it has never seen.

Each world gets a fresh world section (random humans, animals, places, appetites, roads and
starting places, in a random declaration order) in front of the unchanged demons of
scripts/wolf.ds; ds must print exactly what wolf_oracle.py computes for the same world.

With --search the programs are scripts/wolf_search.ds's (the seed's solver, then Search.bfs
over the same demons) and ds must print what the oracle's model of Search.bfs computes too.

With --symmetry every world has two or three farmers and the program is
scripts/wolf_symmetry.ds's (Search.bfs and Search.explore with and without the farmers as
interchangeable nodes): ds's canonical form must give what the oracle's brute force gives.

Usage: wolf_random.py [--n 40] [--seed 1] [--ds target/release/ds] [--search | --symmetry]
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import wolf_oracle  # noqa: E402


def random_world(rng, farmers=None):
    humans = ["f", "s", "t"][: farmers or rng.randint(1, 2)]
    animals = ["w", "g", "c", "b"][: rng.randint(1, 4)]
    places = ["$1", "$2", "$3", "$4"][: rng.randint(2, 4)]
    nodes = humans + animals + places
    rng.shuffle(nodes)
    want = [[a, b] for a in animals for b in animals if a != b and rng.random() < 0.3]
    link = [[p, q] for p in places for q in places if p != q and rng.random() < 0.6]
    on = {x: rng.choice(places) if rng.random() < 0.3 else "$1" for x in humans + animals}
    return {"nodes": nodes, "humans": humans, "animals": animals, "places": places,
            "want": want, "link": link, "on": on}


def world_section(w):
    lines = [
        "edges on, hold, want", "edges link",
        'var Sen = GRAPH("Sen")', "Sen.nodes $human, $animal, $place", "global Sen",
        'var Start = GRAPH("Start")', "GRAPH = Start",
        "nodes " + ", ".join(w["nodes"]), "Start.verbose(0)",
        "[%s] isa Sen=>$human;" % ",".join(w["humans"]),
        "[%s] isa Sen=>$animal;" % ",".join(w["animals"]),
        "[%s] isa Sen=>$place;" % ",".join(w["places"]),
    ]
    lines += ["%s want %s" % (a, b) for a, b in w["want"]]
    lines += ["%s link %s" % (p, q) for p, q in w["link"]]
    lines += ["%s on %s" % (x, p) for x, p in w["on"].items()]
    return "\n".join(lines) + "\n\n"


def script_text(name):
    """A script of scripts/ with its `#include`s written out (the generated worlds live in a
    folder of their own, where the included files are not)."""
    lines = []
    for line in open(os.path.join(ROOT, "scripts", name), encoding="utf-8").read().splitlines(True):
        if line.startswith("#include "):
            lines.append(script_text(line.split('"')[1]))
        else:
            lines.append(line)
    return "".join(lines)


def demons(search=False):
    text = script_text("wolf_search.ds" if search else "wolf.ds")
    return text[text.index("def place"):]


def symmetry_program(w):
    """wolf_symmetry.ds's demons and searches, with this world's farmers interchangeable."""
    text = script_text("wolf_symmetry.ds")
    body = text[text.index("def place"):]
    return body.replace("[f, s, t]", "[" + ", ".join(w["humans"]) + "]")


def without_times(text):
    return "".join(l + "\n" for l in text.splitlines() if not l.startswith("time:"))


def oracle_symmetry(w):
    """The oracle's lines for the symmetry program."""
    return "".join(l + "\n" for l in wolf_oracle.symmetry_lines(w, w["humans"]))


def main():
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    n, seed = int(opt("--n", "40")), int(opt("--seed", "1"))
    ds = opt("--ds", os.path.join(ROOT, "target", "release", "ds"))
    search = "--search" in args
    symmetry = "--symmetry" in args
    rng = random.Random(seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            w = random_world(rng, rng.randint(2, 3) if symmetry else None)
            script = os.path.join(tmp, "world%d.ds" % i)
            with open(script, "w", encoding="utf-8") as f:
                f.write(world_section(w) + (symmetry_program(w) if symmetry else demons(search)))
            wpath = os.path.join(tmp, "world%d.json" % i)
            with open(wpath, "w", encoding="utf-8") as f:
                json.dump(w, f)
            if symmetry:
                want = oracle_symmetry(w)
            else:
                oracle = [sys.executable, os.path.join(HERE, "wolf_oracle.py"), wpath] + (["--search"] if search else [])
                want = subprocess.run(oracle, capture_output=True, text=True).stdout
            got = subprocess.run([ds, script], capture_output=True, text=True)
            status = "ok" if without_times(got.stdout) == want and got.returncode == 0 else "DIFFERS"
            failures += status != "ok"
            summary = [l for l in want.splitlines() if not l.startswith(("Close:", "Start;", "Can't"))]
            print("%-8s world %2d: %s" % (status, i, (summary or want.splitlines())[-1][:70]))
            if status != "ok":
                print(json.dumps(w), "\n--- oracle\n" + want + "--- ds\n" + got.stdout + got.stderr)
    print("%d of %d worlds differ" % (failures, n))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
