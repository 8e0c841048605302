"""An independent reader of the PDDL that ds plan supports, for its tests: optimal plan costs
by a plain uniform-cost search over sets of atoms, and a validator of plans.

    python3 -S oracle.py cost DOMAIN PROBLEM            prints the optimal cost, or "unsolvable"
    python3 -S oracle.py validate DOMAIN PROBLEM PLAN   checks PLAN (ds plan's output), prints its cost
    python3 -S oracle.py states DOMAIN PROBLEM          prints the number of reachable states

Written from the PDDL definition (McDermott et al. 1998; action costs from IPC 2008), sharing
nothing with ds's Rust: every action is grounded over all objects of its parameters' types
(no reachability analysis, no static-predicate pruning, no finite-domain variables), a state is
the frozenset of its true atoms, effects delete first and then add, equality compares names,
and without `(:metric minimize (total-cost))` every action costs 1. Meant for small instances.
"""

import heapq
import itertools
import sys


def tokens(text):
    out = []
    for line in text.splitlines():
        line = line.split(";", 1)[0]
        out += line.replace("(", " ( ").replace(")", " ) ").split()
    return out


def sexpr(text):
    toks = tokens(text.lower())
    stack = [[]]
    for t in toks:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t)
    assert len(stack) == 1 and len(stack[0]) == 1, "unbalanced parentheses"
    return stack[0][0]


def typed_list(items):
    """[(name, type)] from `a b - t c`."""
    out, pending, i = [], [], 0
    while i < len(items):
        if items[i] == "-":
            out += [(n, items[i + 1]) for n in pending]
            pending, i = [], i + 2
        else:
            pending.append(items[i])
            i += 1
    return out + [(n, "object") for n in pending]


def sections(expr):
    return [x for x in expr[2:] if isinstance(x, list)]


class Domain:
    def __init__(self, text):
        e = sexpr(text)
        self.parent = {"object": None}
        self.constants = []
        self.actions = []
        for sec in sections(e):
            head = sec[0]
            if head == ":types":
                for t, p in typed_list(sec[1:]):
                    self.parent[t] = p
                    self.parent.setdefault(p, "object" if p != "object" else None)
            elif head == ":constants":
                self.constants = typed_list(sec[1:])
            elif head == ":action":
                a = {"name": sec[1], "params": [], "pre": [], "eff": []}
                i = 2
                while i < len(sec):
                    key, val = sec[i], sec[i + 1]
                    if key == ":parameters":
                        a["params"] = typed_list(val)
                    elif key == ":precondition":
                        a["pre"] = val
                    elif key == ":effect":
                        a["eff"] = val
                    i += 2
                self.actions.append(a)

    def is_a(self, t, want):
        while t is not None:
            if t == want:
                return True
            t = self.parent.get(t, "object" if t != "object" else None)
        return False


def conj(expr):
    """The literals of a conjunction: [(positive, atom tuple)]."""
    if not expr:
        return []
    if expr[0] == "and":
        return [lit for x in expr[1:] for lit in conj(x)]
    if expr[0] == "not":
        return [(False, tuple(expr[1]))]
    return [(True, tuple(expr))]


def effects(expr):
    """(adds, deletes, cost terms) of an effect."""
    adds, dels, costs = [], [], []
    items = expr[1:] if expr and expr[0] == "and" else ([expr] if expr else [])
    for x in items:
        if x[0] == "not":
            dels.append(tuple(x[1]))
        elif x[0] == "increase":
            costs.append(x[2])
        else:
            adds.append(tuple(x))
    return adds, dels, costs


class Task:
    def __init__(self, dtext, ptext):
        self.d = Domain(dtext)
        e = sexpr(ptext)
        objects = list(self.d.constants)
        init, goal, self.values, self.metric = set(), [], {}, False
        for sec in sections(e):
            if sec[0] == ":objects":
                objects += typed_list(sec[1:])
            elif sec[0] == ":init":
                for a in sec[1:]:
                    if a[0] == "=":
                        self.values[tuple(a[1])] = int(a[2])
                    else:
                        init.add(tuple(a))
            elif sec[0] == ":goal":
                goal = conj(sec[1])
            elif sec[0] == ":metric":
                self.metric = True
        self.objects = objects
        self.init = frozenset(init)
        self.goal = goal
        self.ground()

    def ground(self):
        self.ops = {}
        for a in self.d.actions:
            choices = [[o for o, t in self.objects if self.d.is_a(t, pt)] for _, pt in a["params"]]
            for combo in itertools.product(*choices):
                sub = dict(zip([p for p, _ in a["params"]], combo))

                def g(atom):
                    return tuple(sub.get(x, x) for x in atom)

                pre = [(pos, g(at)) for pos, at in conj(a["pre"])]
                adds, dels, costs = effects(a["eff"])
                # Costs are read when the action is applied: a fluent may be undefined for
                # actions that never apply (a road's length where there is no road).
                cost = [g(c) if isinstance(c, list) else int(c) for c in costs] if self.metric else [1]
                name = "(%s)" % " ".join([a["name"]] + list(combo))
                self.ops[name] = (pre, [g(x) for x in adds], [g(x) for x in dels], cost)

    def holds(self, state, lits):
        for pos, atom in lits:
            if atom[0] == "=":
                ok = atom[1] == atom[2]
            else:
                ok = atom in state
            if ok != pos:
                return False
        return True

    def cost(self, terms):
        return sum(t if isinstance(t, int) else self.values[t] for t in terms)

    def apply(self, state, op):
        pre, adds, dels, cost = self.ops[op]
        return (state - frozenset(dels)) | frozenset(adds), self.cost(cost)


def optimal_cost(task, limit=2000000):
    best = {task.init: 0}
    heap = [(0, 0, task.init)]
    count = itertools.count()
    ops = list(task.ops.items())
    while heap:
        g, _, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        if task.holds(s, task.goal):
            return g
        if len(best) > limit:
            raise SystemExit("oracle: the state space is too large")
        for name, (pre, adds, dels, cost) in ops:
            if task.holds(s, pre):
                t = (s - frozenset(dels)) | frozenset(adds)
                cost = task.cost(cost)
                if g + cost < best.get(t, float("inf")):
                    best[t] = g + cost
                    heapq.heappush(heap, (g + cost, next(count), t))
    return None


def reachable_states(task, limit=2000000):
    """The number of states reachable from the initial state (a state: its set of atoms)."""
    seen = {task.init}
    queue = [task.init]
    ops = list(task.ops.values())
    while queue:
        s = queue.pop()
        for pre, adds, dels, _ in ops:
            if task.holds(s, pre):
                t = (s - frozenset(dels)) | frozenset(adds)
                if t not in seen:
                    if len(seen) > limit:
                        raise SystemExit("oracle: the state space is too large")
                    seen.add(t)
                    queue.append(t)
    return len(seen)


def validate(task, plan_text):
    """Runs the plan; returns its cost, or raises with the step that fails."""
    state, total, claimed = task.init, 0, None
    for n, line in enumerate(plan_text.splitlines(), 1):
        line = line.strip()
        if line.startswith("; cost = "):
            claimed = int(line.split()[3])
            continue
        if not line or line.startswith(";"):
            continue
        if line not in task.ops:
            raise SystemExit("line %d: no such ground action: %s" % (n, line))
        if not task.holds(state, task.ops[line][0]):
            raise SystemExit("line %d: %s is not applicable" % (n, line))
        state, cost = task.apply(state, line)
        total += cost
    if not task.holds(state, task.goal):
        raise SystemExit("the plan does not reach the goal")
    if claimed != total:
        raise SystemExit("the plan costs %d, but its last line says %s" % (total, claimed))
    return total


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[2]) as f:
        dtext = f.read()
    with open(argv[3]) as f:
        ptext = f.read()
    task = Task(dtext, ptext)
    if argv[1] == "cost":
        c = optimal_cost(task)
        print("unsolvable" if c is None else c)
    elif argv[1] == "states":
        print(reachable_states(task))
    elif argv[1] == "validate":
        with open(argv[4]) as f:
            print(validate(task, f.read()))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
