#!/usr/bin/env python3
"""Independent oracle for scripts/heuristics.ds: the 8-puzzle's heuristics judged over the
whole state space (docs/search.md, "Checking a heuristic").

Written from the documentation, not from the Rust code:
* the space is every state reachable from the start, numbered in discovery order of a
  breadth-first search (0 the start; the successors of a state in the order up, down, left,
  right of the blank, each new state numbered when first met);
* the exact cost of a state is the fewest moves from it to the goal: a breadth-first search
  from the goal (every move can be undone, so the moves into a state are the moves out of it);
* a heuristic is admissible when h(s) <= exact(s) for every state that can reach the goal, and
  consistent when h(s) <= 1 + h(t) on every move s -> t and h(goal) = 0; its greatest
  overestimate is max(h(s) - exact(s), 0), and the worst state the lowest-numbered state with
  that overestimate.

Usage:
    heuristics.py [START [GOAL]]    expected output of `ds scripts/heuristics.ds START GOAL`
    heuristics.py --all [--write]   every tests/expected/heuristics[@CASE].args: compare (or
                                    write) the .out next to it
    heuristics.py --selftest        known answers: 181,440 states; the default goal's farthest
                                    state is 30 moves away, 123456780's is 31
"""

import os
import sys
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from puzzles import successors  # noqa: E402  (moves of the blank: up, down, left, right)

USAGE = "usage: heuristics.ds [START [GOAL]]  (a state is 9 digits row by row, 0 the blank)"


def parse(text):
    if len(text) != 9 or sorted(text) != list("012345678"):
        return None
    return tuple(int(c) for c in text)


def explore(start):
    """The states in discovery order and every move as (from id, to id)."""
    ids, states, moves = {start: 0}, [start], []
    i = 0
    while i < len(states):                # states grows while it is walked: breadth first
        for _, t in successors(states[i], 3):
            if t not in ids:
                ids[t] = len(states)
                states.append(t)
            moves.append((i, ids[t]))
        i += 1
    return ids, states, moves


def distances(goal):
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        for _, t in successors(s, 3):
            if t not in dist:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


def misplaced(s, goal):
    return sum(1 for a, b in zip(s, goal) if a != 0 and a != b)


def manhattan(s, goal):
    where = {tile: i for i, tile in enumerate(goal)}
    return sum(abs(i // 3 - where[t] // 3) + abs(i % 3 - where[t] % 3) for i, t in enumerate(s) if t != 0)


def board(s):
    text = "".join(map(str, s))
    return text[:3] + " " + text[3:6] + " " + text[6:]


def judge(name, h, states, moves, exact, goal_ids):
    hs = [h(s) for s in states]
    over = [hs[i] - exact[i] for i in range(len(states)) if exact[i] is not None]
    worst_over = max([0] + over)
    admissible = worst_over <= 0
    consistent = all(hs[a] <= 1 + hs[b] for a, b in moves) and all(hs[g] == 0 for g in goal_ids)
    lines = [f"{name}: admissible {admissible}, consistent {consistent}, max overestimate {worst_over}"]
    if not admissible:
        w = min(i for i in range(len(states)) if exact[i] is not None and hs[i] - exact[i] == worst_over)
        lines.append(f"   worst: state {w}, board {board(states[w])}, {exact[w]} moves from the goal")
    return lines


def heuristics(args):
    if len(args) > 2:
        return [USAGE]
    start_text = args[0] if args else "283164705"
    goal_text = args[1] if len(args) > 1 else "123804765"
    for text in (start_text, goal_text):
        if parse(text) is None:
            return [f"error: {text} is not a state (9 digits 0-8, each once)"]
    start, goal = parse(start_text), parse(goal_text)
    ids, states, moves = explore(start)
    out = [f"8-puzzle from {start_text} to {goal_text}: state space: {len(states)} states, {len(moves)} transitions"]
    if goal not in ids:
        return out + ["the goal cannot be reached from the start: no heuristic can be judged", "answer: none"]
    dist = distances(goal)
    exact = [dist.get(s) for s in states]
    goal_ids = [ids[goal]]
    out += judge("misplaced tiles", lambda s: misplaced(s, goal), states, moves, exact, goal_ids)
    out += judge("Manhattan distance", lambda s: manhattan(s, goal), states, moves, exact, goal_ids)
    out += judge("twice Manhattan", lambda s: 2 * manhattan(s, goal), states, moves, exact, goal_ids)
    far = max(range(len(states)), key=lambda i: (exact[i], -i))
    out.append(f"farthest from the goal: state {far}, board {board(states[far])}, {exact[far]} moves")
    out.append(f"answer: {exact[far]}")
    return out


def run_all(write):
    expected = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "expected")
    stems = ["heuristics"] + sorted(n[:-5] for n in os.listdir(expected)
                                    if n.startswith("heuristics@") and n.endswith(".args"))
    bad = 0
    for stem in stems:
        args = []
        if "@" in stem:
            with open(os.path.join(expected, stem + ".args")) as f:
                args = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
        text = "\n".join(heuristics(args)) + "\n"
        path = os.path.join(expected, stem + ".out")
        if write:
            with open(path, "w") as f:
                f.write(text)
            print("wrote", stem + ".out")
        else:
            ok = os.path.exists(path) and open(path).read() == text
            bad += not ok
            print(("ok   " if ok else "DIFF ") + stem)
    return bad


def selftest():
    default = heuristics([])
    assert "181440 states" in default[0], default[0]
    assert default[-1] == "answer: 30", default[-1]
    assert heuristics(["867254301", "123456780"])[-1] == "answer: 31"
    print("heuristics oracle: self-test ok")


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["--selftest"]:
        selftest()
    elif argv[:1] == ["--all"]:
        sys.exit(1 if run_all("--write" in argv) else 0)
    else:
        print("\n".join(heuristics(argv)))
