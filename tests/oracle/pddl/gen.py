"""Generators of PDDL instances for ds plan's tests: the planning competition's gripper,
blocksworld, miconic and logistics (their domains as the competitions wrote them), a domain
with negative preconditions and equality (`visit`), one with action costs (`roads`) and the
sliding-tile puzzle, whose `at` has three arguments (`tiles`).

    python3 -S gen.py DOMAIN SIZE SEED OUTDIR   writes OUTDIR/domain.pddl and OUTDIR/problem.pddl

The instances are random (from SEED) but fixed for a seed; SIZE is the number of balls,
blocks, passengers, packages or places, or the columns of the tiles' board of two rows.
"""

import os
import random
import sys

GRIPPER = """(define (domain gripper-strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
  (:action drop :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room))
    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))
"""

BLOCKS = """(define (domain blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block) (handempty) (holding ?x - block))
  (:action pick-up :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))
"""

MICONIC = """(define (domain miconic)
  (:requirements :strips :typing)
  (:types passenger - object floor - object)
  (:predicates (origin ?person - passenger ?floor - floor) (destin ?person - passenger ?floor - floor)
               (above ?floor1 - floor ?floor2 - floor) (boarded ?person - passenger)
               (served ?person - passenger) (lift-at ?floor - floor))
  (:action board :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (origin ?p ?f))
    :effect (boarded ?p))
  (:action depart :parameters (?f - floor ?p - passenger)
    :precondition (and (lift-at ?f) (destin ?p ?f) (boarded ?p))
    :effect (and (not (boarded ?p)) (served ?p)))
  (:action up :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f1 ?f2))
    :effect (and (lift-at ?f2) (not (lift-at ?f1))))
  (:action down :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1))
    :effect (and (lift-at ?f2) (not (lift-at ?f1)))))
"""

LOGISTICS = """(define (domain logistics)
  (:requirements :strips :typing)
  (:types truck airplane - vehicle package vehicle - physobj airport location - place city place physobj - object)
  (:predicates (in-city ?loc - place ?city - city) (at ?obj - physobj ?loc - place) (in ?pkg - package ?veh - vehicle))
  (:action load-truck :parameters (?pkg - package ?truck - truck ?loc - place)
    :precondition (and (at ?truck ?loc) (at ?pkg ?loc))
    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?truck)))
  (:action load-airplane :parameters (?pkg - package ?airplane - airplane ?loc - place)
    :precondition (and (at ?pkg ?loc) (at ?airplane ?loc))
    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?airplane)))
  (:action unload-truck :parameters (?pkg - package ?truck - truck ?loc - place)
    :precondition (and (at ?truck ?loc) (in ?pkg ?truck))
    :effect (and (not (in ?pkg ?truck)) (at ?pkg ?loc)))
  (:action unload-airplane :parameters (?pkg - package ?airplane - airplane ?loc - place)
    :precondition (and (in ?pkg ?airplane) (at ?airplane ?loc))
    :effect (and (not (in ?pkg ?airplane)) (at ?pkg ?loc)))
  (:action drive-truck :parameters (?truck - truck ?loc-from - place ?loc-to - place ?city - city)
    :precondition (and (at ?truck ?loc-from) (in-city ?loc-from ?city) (in-city ?loc-to ?city))
    :effect (and (not (at ?truck ?loc-from)) (at ?truck ?loc-to)))
  (:action fly-airplane :parameters (?airplane - airplane ?loc-from - airport ?loc-to - airport)
    :precondition (at ?airplane ?loc-from)
    :effect (and (not (at ?airplane ?loc-from)) (at ?airplane ?loc-to))))
"""

# A robot visits every room once: it may enter only a room it has not visited (a negative
# precondition) and never stay (equality).
VISIT = """(define (domain visit)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types room)
  (:predicates (door ?a - room ?b - room) (robot-in ?r - room) (visited ?r - room))
  (:action enter :parameters (?from - room ?to - room)
    :precondition (and (robot-in ?from) (door ?from ?to) (not (visited ?to)) (not (= ?from ?to)))
    :effect (and (not (robot-in ?from)) (robot-in ?to) (visited ?to)))
  (:action jump-back :parameters (?from - room ?to - room)
    :precondition (and (robot-in ?from) (visited ?to) (not (= ?from ?to)))
    :effect (and (not (robot-in ?from)) (robot-in ?to))))
"""

# A truck carries parcels over roads of given lengths: driving costs the road's length,
# loading and unloading 1 each.
ROADS = """(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types place parcel)
  (:predicates (road ?a - place ?b - place) (truck-at ?p - place) (parcel-at ?x - parcel ?p - place) (loaded ?x - parcel))
  (:functions (road-length ?a - place ?b - place) - number (total-cost) - number)
  (:action drive :parameters (?a - place ?b - place)
    :precondition (and (truck-at ?a) (road ?a ?b))
    :effect (and (not (truck-at ?a)) (truck-at ?b) (increase (total-cost) (road-length ?a ?b))))
  (:action load :parameters (?x - parcel ?p - place)
    :precondition (and (truck-at ?p) (parcel-at ?x ?p))
    :effect (and (not (parcel-at ?x ?p)) (loaded ?x) (increase (total-cost) 1)))
  (:action unload :parameters (?x - parcel ?p - place)
    :precondition (and (truck-at ?p) (loaded ?x))
    :effect (and (not (loaded ?x)) (parcel-at ?x ?p) (increase (total-cost) 1))))
"""


def problem(name, domain, objects, init, goal, metric=False):
    lines = ["(define (problem %s) (:domain %s)" % (name, domain), "  (:objects %s)" % " ".join(objects), "  (:init"]
    lines += ["    %s" % a for a in init]
    lines += ["  )", "  (:goal (and %s))" % " ".join(goal)]
    if metric:
        lines.append("  (:metric minimize (total-cost))")
    lines.append(")")
    return "\n".join(lines) + "\n"


def gripper(n, rng):
    balls = ["ball%d" % i for i in range(1, n + 1)]
    init = ["(room rooma)", "(room roomb)", "(gripper left)", "(gripper right)", "(at-robby rooma)", "(free left)", "(free right)"]
    init += ["(ball %s)" % b for b in balls] + ["(at %s rooma)" % b for b in balls]
    goal = ["(at %s roomb)" % b for b in balls]
    return GRIPPER, problem("gripper-%d" % n, "gripper-strips", ["rooma", "roomb", "left", "right"] + balls, init, goal)


def towers(blocks, rng):
    """A random arrangement of blocks in stacks: the list of stacks, bottom first."""
    stacks = []
    for b in rng.sample(blocks, len(blocks)):
        i = rng.randrange(len(stacks) + 1)
        if i == len(stacks):
            stacks.append([b])
        else:
            stacks[i].append(b)
    return stacks


def stack_atoms(stacks):
    out = []
    for s in stacks:
        out.append("(ontable %s)" % s[0])
        out += ["(on %s %s)" % (a, b) for b, a in zip(s, s[1:])]
        out.append("(clear %s)" % s[-1])
    return out


def blocks(n, rng):
    names = ["b%d" % i for i in range(1, n + 1)]
    init = stack_atoms(towers(names, rng)) + ["(handempty)"]
    goal = [a for a in stack_atoms(towers(names, rng)) if not a.startswith("(clear")]
    return BLOCKS, problem("blocks-%d" % n, "blocks", [b + " - block" for b in names], init, goal)


def miconic(n, rng):
    floors = ["f%d" % i for i in range(n + 1)]
    people = ["p%d" % i for i in range(n)]
    init = ["(above %s %s)" % (a, b) for i, a in enumerate(floors) for b in floors[i + 1:]]
    for p in people:
        o, d = rng.sample(floors, 2)
        init += ["(origin %s %s)" % (p, o), "(destin %s %s)" % (p, d)]
    init.append("(lift-at f0)")
    objs = [p + " - passenger" for p in people] + [f + " - floor" for f in floors]
    return MICONIC, problem("miconic-%d" % n, "miconic", objs, init, ["(served %s)" % p for p in people])


def logistics(n, rng):
    cities = ["c1", "c2"]
    objs, init = [], []
    for c in cities:
        objs += ["%s - city" % c, "%s-ap - airport" % c, "%s-po - location" % c, "%s-truck - truck" % c]
        init += ["(in-city %s-ap %s)" % (c, c), "(in-city %s-po %s)" % (c, c), "(at %s-truck %s-po)" % (c, c)]
    objs.append("plane - airplane")
    init.append("(at plane c1-ap)")
    places = ["c1-ap", "c1-po", "c2-ap", "c2-po"]
    goal = []
    for i in range(1, n + 1):
        src, dst = rng.sample(places, 2)
        objs.append("pkg%d - package" % i)
        init.append("(at pkg%d %s)" % (i, src))
        goal.append("(at pkg%d %s)" % (i, dst))
    return LOGISTICS, problem("logistics-%d" % n, "logistics", objs, init, goal)

# The sliding-tile puzzle with a predicate of three arguments, (at ?t ?c ?r): the domain of
# scripts/pddl/eight.pddl.
TILES = """(define (domain tiles)
  (:requirements :strips :typing)
  (:types tile col row)
  (:predicates (at ?t - tile ?c - col ?r - row) (blank ?c - col ?r - row)
               (left-of ?a - col ?b - col) (above ?a - row ?b - row))
  (:action up :parameters (?t - tile ?c - col ?r - row ?to - row)
    :precondition (and (above ?to ?r) (blank ?c ?to) (at ?t ?c ?r))
    :effect (and (not (at ?t ?c ?r)) (at ?t ?c ?to) (not (blank ?c ?to)) (blank ?c ?r)))
  (:action down :parameters (?t - tile ?c - col ?r - row ?to - row)
    :precondition (and (above ?r ?to) (blank ?c ?to) (at ?t ?c ?r))
    :effect (and (not (at ?t ?c ?r)) (at ?t ?c ?to) (not (blank ?c ?to)) (blank ?c ?r)))
  (:action left :parameters (?t - tile ?c - col ?r - row ?to - col)
    :precondition (and (left-of ?to ?c) (blank ?to ?r) (at ?t ?c ?r))
    :effect (and (not (at ?t ?c ?r)) (at ?t ?to ?r) (not (blank ?to ?r)) (blank ?c ?r)))
  (:action right :parameters (?t - tile ?c - col ?r - row ?to - col)
    :precondition (and (left-of ?c ?to) (blank ?to ?r) (at ?t ?c ?r))
    :effect (and (not (at ?t ?c ?r)) (at ?t ?to ?r) (not (blank ?to ?r)) (blank ?c ?r))))
"""


def visit(n, rng):
    rooms = ["r%d" % i for i in range(n)]
    doors = set()
    for i in range(1, n):
        j = rng.randrange(i)
        doors |= {(rooms[i], rooms[j]), (rooms[j], rooms[i])}
    for _ in range(n // 2):
        a, b = rng.sample(rooms, 2)
        doors.add((a, b))
    init = ["(door %s %s)" % d for d in sorted(doors)] + ["(robot-in r0)", "(visited r0)"]
    return VISIT, problem("visit-%d" % n, "visit", [r + " - room" for r in rooms], init, ["(visited %s)" % r for r in rooms])


def roads(n, rng):
    places = ["p%d" % i for i in range(n)]
    init = ["(truck-at p0)"]
    edges = set()
    for i in range(1, n):
        j = rng.randrange(i)
        edges |= {(i, j), (j, i)}
    for _ in range(n):
        a, b = rng.sample(range(n), 2)
        edges.add((a, b))
    for a, b in sorted(edges):
        init += ["(road p%d p%d)" % (a, b), "(= (road-length p%d p%d) %d)" % (a, b, rng.randint(1, 9))]
    parcels = ["x%d" % i for i in range(1, max(2, n // 2) + 1)]
    goal = []
    for x in parcels:
        a, b = rng.sample(places, 2)
        init.append("(parcel-at %s %s)" % (x, a))
        goal.append("(parcel-at %s %s)" % (x, b))
    init.append("(= (total-cost) 0)")
    objs = [p + " - place" for p in places] + [x + " - parcel" for x in parcels]
    return ROADS, problem("roads-%d" % n, "roads", objs, init, goal, metric=True)


def tiles(n, rng):
    """A board of n columns and 2 rows, scrambled by 40 random slides from the goal."""
    cols = ["c%d" % i for i in range(1, n + 1)]
    rows = ["r1", "r2"]
    cells = [(c, r) for r in range(2) for c in range(n)]
    goal = {cell: "t%d" % (i + 1) for i, cell in enumerate(cells[:-1])}
    board, blank = dict(goal), cells[-1]
    for _ in range(40):
        c, r = blank
        near = [(c + dc, r + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        cell = rng.choice([x for x in near if x in set(cells)])
        board[blank], blank = board.pop(cell), cell
    at = lambda b: ["(at %s %s %s)" % (t, cols[c], rows[r]) for (c, r), t in sorted(b.items(), key=lambda x: x[1])]
    init = ["(left-of %s %s)" % (cols[i], cols[i + 1]) for i in range(n - 1)] + ["(above r1 r2)"]
    init += at(board) + ["(blank %s %s)" % (cols[blank[0]], rows[blank[1]])]
    objs = ["t%d - tile" % i for i in range(1, 2 * n)] + [c + " - col" for c in cols] + [r + " - row" for r in rows]
    return TILES, problem("tiles-%d" % n, "tiles", objs, init, at(goal))


GENERATORS = {"gripper": gripper, "blocks": blocks, "miconic": miconic, "logistics": logistics, "visit": visit, "roads": roads, "tiles": tiles}


def main(argv):
    if len(argv) != 5 or argv[1] not in GENERATORS:
        sys.stderr.write("usage: gen.py {%s} SIZE SEED OUTDIR\n" % ",".join(GENERATORS))
        return 2
    domain, prob = GENERATORS[argv[1]](int(argv[2]), random.Random(int(argv[3])))
    os.makedirs(argv[4], exist_ok=True)
    with open(os.path.join(argv[4], "domain.pddl"), "w") as f:
        f.write(domain)
    with open(os.path.join(argv[4], "problem.pddl"), "w") as f:
        f.write(prob)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
