#!/usr/bin/env python3
"""Wolf worlds of a chosen size for benchmarks: the seed's program on larger worlds.

Each world is a world section (the statements the seed uses: farmers, animals that want to eat
the next one, places and roads) followed by the seed's demons, unchanged: scripts/wolf.ds from
`def place` to the end (the seed's own `solver`). The same world is also written with
`Search.bfs` instead of the solver (the demons up to `target_state`, then one search), so the
two can be timed against each other. Both print the goal state's name last (the plan), and the
oracle (tests/oracle/wolf_oracle.py) counts each world's reachable states.

Usage:
    wolf_worlds.py --list                  the worlds, their shapes and reachable states
    wolf_worlds.py --write DIR [NAME ...]  write DIR/NAME.ds (seed solver), DIR/NAME_search.ds
                                           (Search.bfs) and DIR/NAME.json (for the oracle)
    wolf_worlds.py --count FILE.json       reachable states of a world (the oracle, slow)

A world is given by its farmers, its animals (each wants to eat the next: bear > wolf > goat >
cabbage > ...), its places and how they are linked ("road": each to the next, both ways;
"all": every pair). Everyone starts on $1 and the goal is everyone on $2 (target_state
hard-codes $2). Reusable by other benchmarks: `world(...)` returns the JSON world,
`world_section(w)` its DemonScript, `seed_program(w)` and `search_program(w)` the two programs.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))

FARMERS = ["f", "s", "t", "u"]
ANIMALS = ["b", "w", "g", "c", "m"]

# name: (farmers, animals, places, links, reachable states as the oracle counts them)
WORLDS = {
    "wolf_1e4": (2, 4, 4, "road", 12168),
    "wolf_1e5": (3, 4, 4, "road", 95248),
    # the 512k-state world of issue 17's benchmark (bench/threads.py)
    "wolf_5e5": (3, 5, 4, "road", 512320),
}


def world(farmers, animals, places, links):
    """The JSON world (tests/oracle/worlds/ format) of a shape."""
    humans = FARMERS[:farmers]
    beasts = ANIMALS[:animals]
    # $1 and $2 are the ends; a road goes $1 - $3 - ... - $2
    spots = ["$1"] + ["$%d" % i for i in range(3, places + 1)] + ["$2"]
    if links == "road":
        pairs = [(a, b) for a, b in zip(spots, spots[1:])]
        link = [[a, b] for a, b in pairs] + [[b, a] for a, b in pairs]
    else:
        link = [[a, b] for a in spots for b in spots if a != b]
    return {
        "note": "%d farmers, %s, %d places (%s)" % (farmers, ">".join(beasts), places, links),
        "nodes": humans + beasts + sorted(spots, key=lambda p: int(p[1:])),
        "humans": humans,
        "animals": beasts,
        "places": spots,
        "want": [[a, b] for a, b in zip(beasts, beasts[1:])],
        "link": sorted(link),
        "on": {x: "$1" for x in humans + beasts},
    }


def world_section(w):
    """The world as the seed declares it (the oracle's --check-script reads these forms)."""
    lines = [
        "// " + w["note"] + " (bench/wolf_worlds.py)",
        "edges on, hold, want", "edges link",
        'var Sen = GRAPH("Sen")', "Sen.nodes $human, $animal, $place", "global Sen",
        'var Start = GRAPH("Start")', "GRAPH = Start",
        "nodes " + ", ".join(x for x in w["nodes"] if not x.startswith("$")),
        "nodes " + ", ".join(x for x in w["nodes"] if x.startswith("$")),
        "Start.verbose(0)",
        "[%s] isa Sen=>$human;" % ", ".join(w["humans"]),
        "[%s] isa Sen=>$animal;" % ", ".join(w["animals"]),
        "[%s] isa Sen=>$place;" % ", ".join(w["places"]),
    ]
    lines += ["%s want %s" % (a, b) for a, b in w["want"]]
    lines += ["%s link %s" % (a, b) for a, b in w["link"]]
    lines += ["for X in X.isa(Sen=>$human) | X.isa(Sen=>$animal):", "   X on $1;"]
    return "\n".join(lines) + "\n\n"


def seed_demons():
    """scripts/wolf.ds from `def place` to the end: the seed's demons, solver and last lines."""
    with open(os.path.join(ROOT, "scripts", "wolf.ds"), encoding="utf-8") as f:
        text = f.read()
    return text[text.index("def place"):]


def seed_program(w):
    return world_section(w) + seed_demons()


def search_program(w):
    """The seed's demons up to `target_state`, then Search.bfs; prints the plan last, as the
    seed's program does."""
    demons = seed_demons()
    return (world_section(w) + demons[:demons.index("def solver")]
            + "var Finish = Search.bfs(Start, all_actions, target_state)\n"
            + 'out  Finish==Undef ? "Can\'t find solution" : Finish.name()\n')


def count(w):
    """Reachable states of a world, by the oracle's re-simulation of the seed's demons."""
    import wolf_oracle
    world_ = wolf_oracle.World(w)
    start = wolf_oracle.Graph("Start", world_.start_facts(w))
    program = wolf_oracle.Program(world_)
    seen = {start}
    queue = [start]
    for g in queue:
        for s in program.all_actions(g):
            if s not in seen:
                seen.add(s)
                queue.append(s)
    return len(queue)


def main(argv):
    if argv[:1] == ["--list"]:
        for name, (f, a, p, links, states) in WORLDS.items():
            print("%-10s %s: %d reachable states" % (name, world(f, a, p, links)["note"], states))
        return 0
    if argv[:1] == ["--count"] and len(argv) == 2:
        with open(argv[1]) as f:
            print(count(json.load(f)))
        return 0
    if argv[:1] == ["--write"] and len(argv) >= 2:
        out = argv[1]
        os.makedirs(out, exist_ok=True)
        for name in argv[2:] or list(WORLDS):
            f, a, p, links, _ = WORLDS[name]
            w = world(f, a, p, links)
            for suffix, text in (("", seed_program(w)), ("_search", search_program(w))):
                with open(os.path.join(out, name + suffix + ".ds"), "w", encoding="utf-8") as fh:
                    fh.write(text)
            with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as fh:
                json.dump(w, fh, indent=1)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
