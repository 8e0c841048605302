"""A hand-written solver of the wolf worlds (the twin of the wolf family of bench/run.py): the
seed's breadth-first search in the seed's order, so it prints the same `Close:` line and plan
as the ds program, with a state as a frozenset of the facts that change ("on", X, P) and
("hold", H, A), and a set of the visited states. The facts no state changes (classes, wants,
roads) are kept once, in the world.

Usage: python3 -S wolf_facts.py WORLD.json   (bench/wolf_worlds.py writes the worlds)
"""

import json
import sys
from collections import deque


def load(path):
    spec = json.load(open(path))
    order = {n: i for i, n in enumerate(spec["nodes"])}

    def in_order(names):
        return sorted(names, key=order.get)

    world = {
        "humans": in_order(spec["humans"]),
        "animals": in_order(spec["animals"]),
        "places": in_order(spec["places"]),
        "wants": {a: [b for x, b in spec["want"] if x == a] for a in spec["animals"]},
        "links": {(a, b) for a, b in spec["link"]},
    }
    start = frozenset(("on", x, p) for x, p in spec["on"].items())
    return world, start


def place(state, x, places):
    for p in places:
        if ("on", x, p) in state:
            return p
    return None


def holding(state, h, animals):
    for a in animals:
        if ("hold", h, a) in state:
            return a
    return None


def safe_to_leave(world, state, h, here):
    """Another human stays, or no animal left at `here` wants another one left there."""
    if any(f != h and ("on", f, here) in state for f in world["humans"]):
        return True
    for a in world["animals"]:
        if ("on", a, here) in state and any(("on", b, here) in state for b in world["wants"][a]):
            return False
    return True


def successors(world, state, name):
    """All actions in the seed's order: for each human, put, then take each animal, then move."""
    out = []
    for h in world["humans"]:
        here = place(state, h, world["places"])
        held = holding(state, h, world["animals"])
        if held is not None:                                      # put
            out.append((state - {("hold", h, held)} | {("on", held, here)}, name + ";" + h + ".p"))
        else:
            for a in world["animals"]:                            # take
                if ("on", a, here) in state:
                    out.append((state - {("on", a, here)} | {("hold", h, a)}, name + ";" + h + ".t." + a))
        for p in world["places"]:                                 # move
            if p != here and (here, p) in world["links"] and safe_to_leave(world, state, h, here):
                out.append((state - {("on", h, here)} | {("on", h, p)}, name + ";" + h + ".m." + p))
    return out


def is_target(world, state):
    return all(("on", x, "$2") in state for x in world["humans"] + world["animals"])


def solve(world, start):
    open_ = deque([(start, "Start")])
    close = [start]
    seen = {start}
    while open_:
        state, name = open_.pop()                                 # Open.pop(): from the end
        for nxt, nname in successors(world, state, name):
            if is_target(world, nxt):
                print("Close:", len(close), len(open_))
                return nname
            if nxt in seen:
                continue
            open_.appendleft((nxt, nname))                        # Open.unshift
            close.append(nxt)
            seen.add(nxt)
    return None


def main():
    world, start = load(sys.argv[1])
    found = solve(world, start)
    print("Can't find solution" if found is None else found)


main()
