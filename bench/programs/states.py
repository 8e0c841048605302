"""Micro benchmarks of world states (the twin of states.ds): a state as a frozenset of
(source, relation, target) facts; copy-and-change, ==, and `in` over a list of thousands of
states.  Usage: states.py copy|equal|is"""
import sys

BASE = frozenset((i % 60 + 1, "near", (i * 7 + 3) % 60 + 1) for i in range(100))


def state(i):
    """State i (i < 3600): BASE plus the fact node(i % 60) on node(i // 60)."""
    h = set(BASE)
    h.add((i % 60 + 1, "on", (i - i % 60) // 60 + 1))
    return frozenset(h)


def copies(n):
    made = 0
    for i in range(n):
        h = state(i % 3600)
        made = made + 1
    return made


def make(n):
    return [state(i) for i in range(n)]


def equal_pairs(states, m):
    same = 0
    for i in range(m):
        a = states[i]
        for j in range(m):
            if a == states[j]:
                same = same + 1
    return same


def lookups(states, n):
    found = 0
    for i in range(n):
        if state(i % 3600) in states:
            found = found + 1
    return found


mode = sys.argv[1]
if mode == "copy":
    print("copy:", copies(300000))
if mode == "equal":
    print("equal:", equal_pairs(make(3000), 2000))
if mode == "is":
    print("is:", lookups(make(3000), 6000))
