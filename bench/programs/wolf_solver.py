"""A hand-written solver for the generalised wolf-goat-cabbage worlds (the twin of the wolf*.ds
benchmarks): the same breadth-first search in the same order as the seed's demons, so it prints
the same `Close:` line and plan, but with a Python hash set for the visited states and a state
as two tuples (where each human and animal is; what each human holds).

Usage: wolf_solver.py WORLD.json   (worlds in bench/programs/ and tests/oracle/worlds/)
"""

import json
import sys
from collections import deque


def load(path):
    spec = json.load(open(path))
    order = {n: i for i, n in enumerate(spec["nodes"])}
    humans = sorted(spec["humans"], key=order.get)
    animals = sorted(spec["animals"], key=order.get)
    places = sorted(spec["places"], key=order.get)
    movers = sorted(humans + animals, key=order.get)
    mi = {n: i for i, n in enumerate(movers)}
    pi = {n: i for i, n in enumerate(places)}
    world = {
        "names": movers,
        "place_names": places,
        "humans": [mi[h] for h in humans],
        "animals": [mi[a] for a in animals],
        "wants": {mi[a]: [mi[b] for x, b in spec["want"] if x == a] for a in animals},
        "links": {(pi[a], pi[b]) for a, b in spec["link"]},
        "target": pi["$2"],
        "nplaces": len(places),
    }
    on = [None] * len(movers)
    for x, p in spec["on"].items():
        on[mi[x]] = pi[p]
    hold = [None] * len(movers)
    return world, (tuple(on), tuple(hold))


def successors(world, state, name):
    """All actions in the seed's order: for each human, put, then take each animal, then move."""
    on, hold = state
    out = []
    for h in world["humans"]:
        here = on[h]
        if hold[h] is not None:                                   # put
            z = hold[h]
            o, k = list(on), list(hold)
            o[z], k[h] = here, None
            out.append(((tuple(o), tuple(k)), name + ";" + world["names"][h] + ".p"))
        for a in world["animals"]:                                # take
            if hold[h] is None and on[a] == here:
                o, k = list(on), list(hold)
                o[a], k[h] = None, a
                out.append(((tuple(o), tuple(k)), name + ";" + world["names"][h] + ".t." + world["names"][a]))
        for p in range(world["nplaces"]):                         # move
            if p == here or (here, p) not in world["links"] or not safe_to_leave(world, on, h, here):
                continue
            o = list(on)
            o[h] = p
            out.append(((tuple(o), hold), name + ";" + world["names"][h] + ".m." + world["place_names"][p]))
    return out


def safe_to_leave(world, on, h, here):
    """Another human stays, or no animal left at `here` wants another one left there."""
    if any(f != h and on[f] == here for f in world["humans"]):
        return True
    for a in world["animals"]:
        if on[a] == here and any(on[b] == here for b in world["wants"][a]):
            return False
    return True


def is_target(world, state):
    on, hold = state
    t = world["target"]
    return all(on[x] == t for x in range(len(on))) and all(k is None for k in hold)


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
