#!/usr/bin/env python3
"""Independent oracle for the sliding-tile puzzles: scripts/eight.ds and scripts/fifteen.ds.

Written from the search algorithms as documented in docs/problems.md (sections "Eight puzzle"
and "Fifteen puzzle") and in the seeds (000/001: A* on the 8-puzzle; 004: BFS, depth-limited
DFS and A* on the 15-puzzle); it does not use the Rust interpreter.  It prints exactly the
standard output of the scripts, except the `time:` lines (CPU times), which the golden test
ignores.

The conventions both the scripts and this oracle follow:
* a state is the tiles row by row, 0 the blank;
* the successors of a state are made by moving the blank up, down, left, right (in this
  order); a move is named by the direction the blank moves;
* solvability: for an odd board width the parity of the number of inversions (the blank
  not counted) is invariant; for an even width, inversions + the blank's row is.  A start
  whose invariant differs from the goal's is reported without searching;
* A*: OPEN is ordered by f = g + h, ties by smaller h, then by the older node (node numbers
  are given in order of generation, the start is node 1).  A node taken from OPEN moves to
  CLOSED, then is tested for the goal, then expanded.  A successor whose state is in CLOSED
  is dropped (both heuristics are consistent); one whose state is in OPEN with a g that is
  not larger is dropped; otherwise it becomes a new node (generated) and goes into OPEN
  (an OPEN entry it improves on is dropped when it comes out of OPEN);
* BFS (seed 004): take the first node of OPEN into CLOSED, put all its successors whose
  state was never met at the end of OPEN, then succeed if one of them is the goal;
* depth-limited DFS (seed 004): take the first node of OPEN into CLOSED (a node whose state
  has meanwhile been reached by a shorter path is dropped instead); a node at the depth limit
  is not expanded; successors never met or met only deeper are put at the front of OPEN
  (first successor first); succeed if one of them is the goal.
  "generated" counts the nodes created, the start included; OPEN and CLOSED are the numbers
  of states in them at the end (CLOSED holds distinct states).

Usage:
    puzzles.py eight [ARGS...]      expected output of `ds scripts/eight.ds ARGS...`
    puzzles.py fifteen [ARGS...]    expected output of `ds scripts/fifteen.ds ARGS...`
    puzzles.py compare [ARGS...]    expected output of `ds scripts/compare.ds ARGS...`
    puzzles.py --all [--write]      every tests/expected/{eight,fifteen,compare}[@CASE].args:
                                    compare (or write) the .out next to it
    puzzles.py --selftest           known answers: 8-puzzle default 5 moves, 181,440 states
                                    reachable, 15-puzzle seed instance 16 moves; the SVG
                                    picture (eight --svg) parses as XML (xml.etree)
"""

import heapq
import os
import sys
import xml.etree.ElementTree as ET
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_oracle  # noqa: E402  (the model of ds's Search module)

DIRS = ("up", "down", "left", "right")


# ----------------------------------------------------------------------------- the board

def successors(state, width):
    """(move, new state) for each way the blank can move, in the order up, down, left, right."""
    b = state.index(0)
    row, col = divmod(b, width)
    out = []
    for name, ok, delta in (("up", row > 0, -width), ("down", row < width - 1, width),
                            ("left", col > 0, -1), ("right", col < width - 1, 1)):
        if ok:
            t = list(state)
            t[b], t[b + delta] = t[b + delta], t[b]
            out.append((name, tuple(t)))
    return out


def inversions(state):
    tiles = [x for x in state if x != 0]
    return sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])


def invariant(state, width):
    inv = inversions(state)
    if width % 2 == 1:
        return inv % 2
    return (inv + state.index(0) // width) % 2


def misplaced(state, goal):
    return sum(1 for a, b in zip(state, goal) if a != 0 and a != b)


def manhattan(state, goal, width):
    where = {t: i for i, t in enumerate(goal)}
    d = 0
    for i, t in enumerate(state):
        if t != 0:
            j = where[t]
            d += abs(i // width - j // width) + abs(i % width - j % width)
    return d


class Node:
    def __init__(self, num, state, parent, move, g, h):
        self.num, self.state, self.parent, self.move, self.g, self.h = num, state, parent, move, g, h

    @property
    def f(self):
        return self.g + self.h


def path_of(node):
    nodes = []
    while node is not None:
        nodes.append(node)
        node = node.parent
    nodes.reverse()
    return nodes


# ----------------------------------------------------------------------------- searches

CHILDREN = []   # every node A* generated (besides the start), for the DOT export


def astar(start, goal, h):
    """Returns (goal node or None, expanded nodes in order, generated, open size, closed size)."""
    CHILDREN.clear()
    count = 1
    root = Node(1, start, None, "-", 0, h(start))
    heap = [(root.f, root.h, root.num, root)]
    best_g = {start: 0}          # g of the state's live OPEN entry
    closed = set()
    expanded = []
    while heap:
        _, _, _, n = heapq.heappop(heap)
        if n.state in closed or best_g[n.state] < n.g:
            continue             # stale entry: the state was reached by a shorter path
        del best_g[n.state]
        closed.add(n.state)
        if n.state == goal:
            return n, expanded, count, len(best_g), len(closed)
        expanded.append(n)
        for move, t in successors(n.state, WIDTH[0]):
            g = n.g + 1
            if t in closed or (t in best_g and best_g[t] <= g):
                continue
            count += 1
            c = Node(count, t, n, move, g, h(t))
            CHILDREN.append(c)
            best_g[t] = g
            heapq.heappush(heap, (c.f, c.h, c.num, c))
    return None, expanded, count, 0, len(closed)


def bfs(start, goal):
    count = 1
    root = Node(1, start, None, "-", 0, 0)
    if start == goal:
        return root, count, 1, 0     # the start waits in OPEN, never taken out
    open_ = deque([root])
    seen = {start}
    closed = set()
    while open_:
        n = open_.popleft()
        closed.add(n.state)
        found = None
        for move, t in successors(n.state, WIDTH[0]):
            if t in seen:
                continue
            seen.add(t)
            count += 1
            c = Node(count, t, n, move, n.g + 1, 0)
            open_.append(c)
            if t == goal and found is None:
                found = c
        if found:
            return found, count, len(open_), len(closed)
    return None, count, 0, len(closed)


def dfs(start, goal, limit):
    count = 1
    root = Node(1, start, None, "-", 0, 0)
    if start == goal:
        return root, count, 1, 0     # the start waits in OPEN, never taken out
    open_ = [root]               # the front of OPEN is the end of this list
    best = {start: 0}
    closed = set()
    while open_:
        n = open_.pop()
        if best[n.state] < n.g:
            continue             # reached by a shorter path meanwhile
        closed.add(n.state)
        if n.g == limit:
            continue
        children = []
        for move, t in successors(n.state, WIDTH[0]):
            g = n.g + 1
            if t in best and best[t] <= g:
                continue
            best[t] = g
            count += 1
            children.append(Node(count, t, n, move, g, 0))
        open_.extend(reversed(children))   # first successor at the front
        for c in children:
            if c.state == goal:
                return c, count, len(open_), len(closed)
    return None, count, 0, len(closed)


WIDTH = [3]


# ----------------------------------------------------------------------------- output helpers

def pad(x, w):
    s = str(x)
    return " " * (w - len(s)) + s


def padr(x, w):
    s = str(x)
    return s + " " * (w - len(s))


def boards(states, width, cell):
    """Boards side by side, at most 8 to a row of boards, a blank line between rows."""
    lines = []
    per = 8
    for k in range(0, len(states), per):
        group = states[k:k + per]
        if k > 0:
            lines.append("")
        for r in range(width):
            parts = []
            for s in group:
                parts.append(" ".join(pad(s[r * width + c], cell) for c in range(width)))
            lines.append("   ".join(parts))
    return lines


# ----------------------------------------------------------------------------- eight

def eight_usage():
    return ["usage: eight.ds [START [GOAL]] [--manhattan] [--tree N] [--dot FILE] [--svg FILE] [--library]",
            "  a state is 9 digits row by row, 0 the blank, e.g. 283164705"]


def eight_state(text):
    if len(text) != 9 or sorted(text) != list("012345678"):
        return None
    return tuple(int(c) for c in text)


def eight(args):
    out = []
    pos = []
    manh = False
    tree = 20
    dot = None
    svg = None
    library = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--manhattan":
            manh = True
        elif a == "--library":
            library = True
        elif a == "--tree" and i + 1 < len(args) and args[i + 1].isdigit():
            i += 1
            tree = int(args[i])
        elif a == "--dot" and i + 1 < len(args):
            i += 1
            dot = args[i]
        elif a == "--svg" and i + 1 < len(args):
            i += 1
            svg = args[i]
        elif a.startswith("--") or len(pos) == 2:
            return eight_usage()
        else:
            pos.append(a)
        i += 1
    texts = pos + ["283164705", "123804765"][len(pos):]
    start, goal = eight_state(texts[0]), eight_state(texts[1])
    for t, s in zip(texts, (start, goal)):
        if s is None:
            return ["error: " + t + " is not a state (9 digits 0-8, each once)"] + eight_usage()
    if library and (dot or svg):
        return ["error: --dot and --svg draw the script's own search tree; leave out --library"] + eight_usage()
    WIDTH[0] = 3
    key = lambda s: "".join(map(str, s))
    if manh:
        out.append("8-puzzle by A*, h = Manhattan distance (the blank is not counted)")
        h = lambda s: manhattan(s, goal, 3)
    else:
        out.append("8-puzzle by A*, h = misplaced tiles (the blank is not counted)")
        h = lambda s: misplaced(s, goal)
    out.append("start " + key(start) + "   goal " + key(goal))
    out.extend(boards([start, goal], 3, 1))
    ps, pg = invariant(start, 3), invariant(goal, 3)
    if ps != pg:
        par = lambda p: "odd" if p else "even"
        out.append("unsolvable: the start's permutation parity (" + par(ps) + ") differs from the goal's ("
                   + par(pg) + "); no search done")
        out.append("answer: none")
        return out
    if library:
        return out + eight_library(start, goal, h, tree, key)
    found, expanded, generated, nopen, nclosed = astar(start, goal, h)
    out.append("")
    out.append("search tree: the expanded nodes in order (node numbers in order of generation)")
    out.append(" step  node parent move  state      g  h  f")
    for k, n in enumerate(expanded[:tree]):
        out.append(pad(k + 1, 5) + pad(n.num, 6) + pad(n.parent.num if n.parent else "-", 7) + " "
                   + padr(n.move, 6) + key(n.state) + pad(n.g, 3) + pad(n.h, 3) + pad(n.f, 3))
    if len(expanded) > tree:
        out.append("... " + str(len(expanded) - tree) + " more expanded nodes not shown (--tree N shows N)")
    out.append("goal: node " + str(found.num) + ", g=" + str(found.g))
    out.append("expanded: " + str(len(expanded)))
    out.append("generated: " + str(generated))
    out.append("open: " + str(nopen) + ", closed: " + str(nclosed))
    path = path_of(found)
    out.append("moves of the blank: " + (" ".join(n.move for n in path[1:]) or "(none)"))
    out.extend(boards([n.state for n in path], 3, 1))
    if dot == "-":
        out.extend(dot_lines(found, expanded, tree, key))
    elif dot:
        out.append("search tree written to " + dot + " (Graphviz DOT)")
    if svg == "-":
        heuristic = "Manhattan distance" if manh else "misplaced tiles"
        out.extend(svg_lines(found, expanded, tree, key, key(start), key(goal), heuristic))
    elif svg:
        out.append("search tree written to " + svg + " (SVG)")
    out.append("answer: " + str(found.g))
    return out


def eight_library(start, goal, h, tree, key):
    """eight.ds --library: the same A* through the Search module (search_oracle's model)."""
    succ = lambda s: [(m, t, 1) for m, t in successors(s, 3)]
    r = search_oracle.search("astar", start, succ, lambda s: s == goal, h=h)
    out = ["", "search tree (Search.astar): the expanded states in order (numbers in order of discovery, 0 the start)",
           " step state parent move  board      g  h  f"]
    for e in r["trace"][:tree]:
        parent = e["parent"] if e["parent"] >= 0 else "-"
        out.append(pad(e["step"], 5) + pad(e["id"], 6) + pad(parent, 7) + " " + padr(e["action"] or "-", 6)
                   + key(e["state"]) + pad(num(e["g"]), 3) + pad(num(e["h"]), 3) + pad(num(e["f"]), 3))
    if len(r["trace"]) > tree:
        out.append("... " + str(len(r["trace"]) - tree) + " more expanded states not shown (--tree N shows N)")
    out.append("goal: g=" + num(r["cost"]))
    out.append("expanded: " + str(r["expanded"]))
    out.append("generated: %(generated)d, duplicates: %(duplicates)d, max frontier: %(max_frontier)d, states: %(states)d" % r)
    out.append("moves of the blank: " + (" ".join(r["actions"]) or "(none)"))
    out.extend(boards(r["path"], 3, 1))
    out.append("answer: " + str(len(r["actions"])))
    return out


def dot_lines(found, expanded, limit, key):
    """The search tree in Graphviz DOT: the start, the first `limit` expanded nodes and all the
    children they generated, in order of node number; the solution path bold and red, nodes never
    expanded dashed."""
    step = {n.num: k + 1 for k, n in enumerate(expanded)}
    shown_parents = {n.num for n in expanded[:limit]}
    on_path = {n.num for n in path_of(found)}
    nodes = {n.num: n for n in [path_of(found)[0]] + CHILDREN}
    lines = ["digraph search_tree {", '  node [shape=box, fontname="Courier"];']
    for num in sorted(nodes):
        n = nodes[num]
        if n.parent is not None and n.parent.num not in shown_parents:
            continue
        label = "node " + str(num)
        if num in step:
            label += ", step " + str(step[num])
        if num == found.num:
            label += ", goal"
        s = key(n.state)
        for r in range(3):
            label += "\\n" + " ".join(s[r * 3:r * 3 + 3])
        label += "\\ng=%d h=%d f=%d" % (n.g, n.h, n.f)
        style = "style=bold, color=red" if num in on_path else ("style=solid" if num in step else "style=dashed")
        lines.append("  n%d [label=\"%s\", %s];" % (num, label, style))
        if n.parent is not None:
            lines.append('  n%d -> n%d [label="%s"];' % (n.parent.num, num, n.move))
    lines.append("}")
    return lines


# SVG picture of the same tree (eight.ds --svg), laid out by a tidy tree layout: leaves in slots
# 0, 1, 2, ... from left to right in depth-first order (children by node number), each parent
# midway between its first and last child, row = depth = g.  Sizes in pixels, as in eight.ds.
SLOT_W, BOX_W, BOX_H, ROW_H, MARGIN, LINE_H = 150, 130, 88, 144, 20, 15


def num(x):
    """A number as ds prints it: integral values without a fraction, others in shortest form."""
    if isinstance(x, str):
        return x
    if float(x).is_integer():
        return str(int(x))
    return repr(float(x))


def xml_text(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&apos;"))


def xml_attr(name, value):
    return ' %s="%s"' % (name, xml_text(num(value)))


def tidy_layout(root, children):
    """{node number: x in slots}, number of slots (leaves)."""
    x = {}
    next_slot = [0]

    def visit(num_):
        kids = children.get(num_, [])
        if not kids:
            x[num_] = next_slot[0]
            next_slot[0] += 1
            return
        for c in kids:
            visit(c)
        x[num_] = (x[kids[0]] + x[kids[-1]]) / 2

    visit(root)
    return x, next_slot[0]


def svg_lines(found, expanded, limit, key, start_key, goal_key, heuristic):
    """The nodes of dot_lines as an SVG picture: edges (parent bottom to child top, the move
    halfway), then boxes (title line, board, g h f); the solution path red and filled, nodes
    never expanded dashed."""
    step = {n.num: k + 1 for k, n in enumerate(expanded)}
    shown_parents = {n.num for n in expanded[:limit]}
    on_path = {n.num for n in path_of(found)}
    root = path_of(found)[0]
    nodes = {root.num: root}
    for c in CHILDREN:
        if c.parent.num in shown_parents:
            nodes[c.num] = c
    children = {}
    for num_ in sorted(nodes):
        if nodes[num_].parent is not None:
            children.setdefault(nodes[num_].parent.num, []).append(num_)
    x, slots = tidy_layout(root.num, children)
    rows = max(n.g for n in nodes.values()) + 1
    cx = lambda num_: MARGIN + SLOT_W * x[num_] + SLOT_W / 2
    top = lambda n: MARGIN + ROW_H * n.g
    width = 2 * MARGIN + SLOT_W * slots
    height = 2 * MARGIN + ROW_H * (rows - 1) + BOX_H
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             "<svg" + xml_attr("xmlns", "http://www.w3.org/2000/svg") + xml_attr("width", width)
             + xml_attr("height", height) + xml_attr("viewBox", "0 0 %s %s" % (num(width), num(height)))
             + xml_attr("font-family", "monospace") + xml_attr("font-size", 12) + ">",
             "  <title>" + xml_text("8-puzzle A* search tree, %s to %s, h = %s" % (start_key, goal_key, heuristic))
             + "</title>",
             '  <rect width="100%" height="100%" fill="white"/>']
    for num_ in sorted(nodes):
        n = nodes[num_]
        if n.parent is None:
            continue
        x1, y1 = cx(n.parent.num), top(n.parent) + BOX_H
        x2, y2 = cx(num_), top(n)
        stroke = ("#c00000", 3) if num_ in on_path else ("#666666", 1)
        lines.append("  <line" + xml_attr("x1", x1) + xml_attr("y1", y1) + xml_attr("x2", x2) + xml_attr("y2", y2)
                     + xml_attr("stroke", stroke[0]) + xml_attr("stroke-width", stroke[1]) + "/>")
        lines.append("  <text" + xml_attr("x", (x1 + x2) / 2) + xml_attr("y", (y1 + y2) / 2 + 4)
                     + ' text-anchor="middle" font-size="11" stroke="white" stroke-width="3" paint-order="stroke">'
                     + xml_text(n.move) + "</text>")
    for num_ in sorted(nodes):
        n = nodes[num_]
        x0, y0 = cx(num_), top(n)
        box = ("  <rect" + xml_attr("x", x0 - BOX_W / 2) + xml_attr("y", y0) + xml_attr("width", BOX_W)
               + xml_attr("height", BOX_H) + ' rx="4"')
        if num_ in on_path:
            box += ' fill="#ffe4e1" stroke="#c00000" stroke-width="3"'
        else:
            box += ' fill="white" stroke="#333333" stroke-width="1"'
            if num_ not in step:
                box += ' stroke-dasharray="4,3"'
        lines.append(box + "/>")
        title = "node " + str(num_)
        if num_ in step:
            title += ", step " + str(step[num_])
        if num_ == found.num:
            title += ", goal"
        s = key(n.state)
        texts = [title] + [" ".join(s[r * 3:r * 3 + 3]) for r in range(3)] + ["g=%d h=%d f=%d" % (n.g, n.h, n.f)]
        for i, t in enumerate(texts):
            lines.append("  <text" + xml_attr("x", x0) + xml_attr("y", y0 + 17 + LINE_H * i) + ' text-anchor="middle"'
                         + (' font-weight="bold"' if i == 0 else "") + ">" + xml_text(t) + "</text>")
    lines.append("</svg>")
    return lines


def check_svg(lines):
    """The SVG among output lines parses as XML: an <svg> root with one box per node and one line
    per edge, every node inside the picture.  Returns the number of boxes."""
    first = next(i for i, l in enumerate(lines) if l.startswith("<?xml"))
    last = lines.index("</svg>", first)
    root = ET.fromstring("\n".join(lines[first:last + 1]).encode("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == ns + "svg", root.tag
    width, height = float(root.get("width")), float(root.get("height"))
    boxes = root.findall(ns + "rect")[1:]          # the first rect is the background
    edges = root.findall(ns + "line")
    assert boxes and len(edges) == len(boxes) - 1, (len(boxes), len(edges))
    for b in boxes:
        x, y = float(b.get("x")), float(b.get("y"))
        assert 0 <= x and x + BOX_W <= width and 0 <= y and y + BOX_H <= height, (x, y)
    return len(boxes)


# ----------------------------------------------------------------------------- fifteen

SEED_START = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
SEED_GOAL = "0,2,1,3,5,4,6,7,8,9,10,11,12,13,14,15"


def fifteen_usage():
    return ["usage: fifteen.ds [METHOD [START GOAL]] [--limit N] [--library]",
            "  METHOD is bfs, dfs, astar or all; a state is 16 numbers 0-15 separated by commas, 0 the blank"]


def fifteen_state(text):
    parts = text.split(",")
    if len(parts) != 16 or not all(p.strip().isdigit() and len(p.strip()) <= 2 for p in parts):
        return None
    s = tuple(int(p) for p in parts)
    return s if sorted(s) == list(range(16)) else None


def fifteen(args):
    pos = []
    limit = 5
    library = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--library":
            library = True
        elif a == "--limit" and i + 1 < len(args) and args[i + 1].isdigit():
            i += 1
            limit = int(args[i])
        elif a.startswith("--") or len(pos) == 3:
            return fifteen_usage()
        else:
            pos.append(a)
        i += 1
    method = pos[0] if pos else "all"
    if method not in ("bfs", "dfs", "astar", "all") or len(pos) == 2:
        return fifteen_usage()
    texts = pos[1:] if len(pos) == 3 else [SEED_START, SEED_GOAL]
    start, goal = fifteen_state(texts[0]), fifteen_state(texts[1])
    for t, s in zip(texts, (start, goal)):
        if s is None:
            return ["error: " + t + " is not a state (16 numbers 0-15, each once)"] + fifteen_usage()
    WIDTH[0] = 4
    key = lambda s: ",".join(map(str, s))
    out = ["15-puzzle", "start " + key(start), "goal  " + key(goal)]
    out.extend(boards([start, goal], 4, 2))
    if invariant(start, 4) != invariant(goal, 4):
        out.append("unsolvable: the start's parity (inversions + blank row) differs from the goal's; no search done")
        out.append("answer: none")
        return out
    methods = ["bfs", "dfs", "astar"] if method == "all" else [method]
    answer = None
    if library:
        return out + fifteen_library(methods, method, start, goal, limit)
    for m in methods:
        out.append("")
        if m == "bfs":
            out.append("== breadth-first search")
            found, gen, nopen, nclosed = bfs(start, goal)
        elif m == "dfs":
            out.append("== depth-limited depth-first search, limit " + str(limit))
            found, gen, nopen, nclosed = dfs(start, goal, limit)
        else:
            out.append("== A*, h = Manhattan distance")
            found, expanded, gen, nopen, nclosed = astar(start, goal, lambda s: manhattan(s, goal, 4))
        if found is None:
            out.append("no solution" + (" within " + str(limit) + " moves" if m == "dfs" else ""))
        else:
            path = path_of(found)
            out.append("moves: " + str(found.g))
            out.append("moves of the blank: " + (" ".join(n.move for n in path[1:]) or "(none)"))
            if m != "dfs" and (answer is None or found.g < answer):
                answer = found.g
            if m == "dfs" and method == "dfs":
                answer = found.g
        out.append("generated: " + str(gen))
        out.append("open: " + str(nopen) + ", closed: " + str(nclosed))
    out.append("answer: " + ("none" if answer is None else str(answer)))
    return out


def fifteen_library(methods, method, start, goal, limit):
    """fifteen.ds --library: the same searches through the Search module (search_oracle)."""
    titles = {"bfs": "breadth-first search (Search.bfs)",
              "dfs": "depth-limited depth-first search (Search.dfs), limit " + str(limit),
              "astar": "A*, h = Manhattan distance (Search.astar)"}
    succ = lambda s: [(m, t, 1) for m, t in successors(s, 4)]
    is_goal = lambda s: s == goal
    out = []
    answer = None
    for m in methods:
        out += ["", "== " + titles[m]]
        if m == "bfs" and is_goal(start):
            out.append("the start is the goal: no search (Search.bfs tests states when they are generated)")
            moves = []
        else:
            r = search_oracle.search(m, start, succ, is_goal, limit=limit if m == "dfs" else None,
                                     h=lambda s: manhattan(s, goal, 4))
            out.append("expanded: %(expanded)d, generated: %(generated)d, duplicates: %(duplicates)d, "
                       "max frontier: %(max_frontier)d, states: %(states)d" % r)
            moves = r["actions"] if r["found"] else None
        if moves is None:
            out.append("no solution" + (" within " + str(limit) + " moves" if m == "dfs" else ""))
        else:
            out.append("moves: " + str(len(moves)))
            out.append("moves of the blank: " + (" ".join(moves) or "(none)"))
            if m != "dfs" or method == "dfs":
                if answer is None or len(moves) < answer:
                    answer = len(moves)
    out.append("answer: " + ("none" if answer is None else str(answer)))
    return out


# ----------------------------------------------------------------------------- compare.ds

def tile_state(text, width):
    """compare.ds's parse_state: 9 digits or numbers separated by commas -> a tuple, or None."""
    parts = text.split(",") if "," in text else list(text)
    if len(parts) != width * width:
        return None
    s = []
    for p in parts:
        p = p.strip()
        if not p or len(p) > 2 or not p.isdigit() or int(p) >= width * width or int(p) in s:
            return None
        s.append(int(p))
    return tuple(s)


def compare_one(name, width, texts):
    start, goal = tile_state(texts[0], width), tile_state(texts[1], width)
    for t, x in zip(texts, (start, goal)):
        if x is None:
            return ["error: " + t + " is not a state of the " + name] + compare_usage()
    sep = "" if width == 3 else ","
    out = ["== " + name + ": " + sep.join(map(str, start)) + " -> " + sep.join(map(str, goal))]
    if invariant(start, width) != invariant(goal, width):
        return out + ["unsolvable: the start's and the goal's invariants differ; no search done"]
    succ = lambda s: [(m, t, 1) for m, t in successors(s, width)]
    is_goal = lambda s: s == goal
    mis = lambda s: misplaced(s, goal)
    man = lambda s: manhattan(s, goal, width)
    entries = [("bfs", "bfs", None), ("iddfs", "iddfs", None), ("ucs", "ucs", None),
               ("astar misplaced", "astar", mis), ("astar manhattan", "astar", man),
               ("idastar misplaced", "idastar", mis), ("idastar manhattan", "idastar", man)]
    rows = search_oracle.compare_rows(entries, start, succ, is_goal)
    out += search_oracle.compare_table(rows)
    best = rows[0]
    for r in rows:
        if r["expanded"] < best["expanded"]:
            best = r
    out.append("fewest expanded: %s (%d)" % (best["algorithm"], best["expanded"]))
    out.append("moves of the blank: " + " ".join(rows[-1]["actions"]))
    return out


def compare_usage():
    return ["usage: compare.ds [eight|fifteen|all] [START GOAL] [--time]",
            "  a state is the cells row by row, 0 the blank: 9 digits (283164705) or 16 numbers with commas"]


def compare(args):
    pos = [a for a in args if a != "--time"]
    if any(a.startswith("--") for a in pos) or len(pos) > 3:
        return compare_usage()
    which = pos[0] if pos else "all"
    if which not in ("eight", "fifteen", "all") or len(pos) == 2 or (which == "all" and len(pos) == 3):
        return compare_usage()
    out = []
    if which != "fifteen":
        out += compare_one("8-puzzle", 3, pos[1:] if len(pos) == 3 else ["283164705", "123804765"])
    if which == "all":
        out.append("")
    if which != "eight":
        out += compare_one("15-puzzle", 4, pos[1:] if len(pos) == 3 else [SEED_START, SEED_GOAL])
    return out


# ----------------------------------------------------------------------------- driver

def selftest():
    WIDTH[0] = 3
    s, g = eight_state("283164705"), eight_state("123804765")
    found = astar(s, g, lambda x: misplaced(x, g))[0]
    assert found.g == 5, found.g
    # the whole reachable space from one state
    seen = {s}
    q = deque([s])
    while q:
        x = q.popleft()
        for _, t in successors(x, 3):
            if t not in seen:
                seen.add(t)
                q.append(t)
    assert len(seen) == 181440, len(seen)
    WIDTH[0] = 4
    s, g = fifteen_state(SEED_START), fifteen_state(SEED_GOAL)
    found = astar(s, g, lambda x: manhattan(x, g, 4))[0]
    assert found.g == 16, found.g
    # the SVG picture is well-formed XML; the default instance draws the 12 nodes of its DOT text
    assert check_svg(eight(["--svg", "-"])) == 12
    assert check_svg(eight(["867254301", "123456780", "--manhattan", "--tree", "12", "--svg", "-"])) == 20
    assert check_svg(eight(["123804765", "--svg", "-"])) == 1
    assert ET.fromstring("<t>" + xml_text("<a & 'b' \"c\">") + "</t>").text == "<a & 'b' \"c\">"
    print("selftest ok: 8-puzzle 5 moves, 181440 reachable states; 15-puzzle seed 16 moves; SVG well-formed")


def run_all(write):
    here = os.path.dirname(os.path.abspath(__file__))
    expected = os.path.join(here, "..", "expected")
    bad = 0
    scripts = {"eight": eight, "fifteen": fifteen, "compare": compare}
    stems = list(scripts) + sorted(
        name[:-5] for name in os.listdir(expected)
        if name.endswith(".args") and name.split("@")[0] in scripts)
    for stem in stems:
        base = stem.split("@")[0]
        args = []
        if "@" in stem:
            with open(os.path.join(expected, stem + ".args")) as f:
                args = [line.rstrip("\n") for line in f if line.rstrip("\n") != "" and not line.startswith("#")]
        lines = scripts[base](args)
        if "</svg>" in lines:
            check_svg(lines)                       # an SVG picture must be well-formed XML
        text = "\n".join(lines) + "\n"
        path = os.path.join(expected, stem + ".out")
        if write:
            with open(path, "w") as f:
                f.write(text)
            print("wrote", stem + ".out")
        else:
            old = open(path).read() if os.path.exists(path) else None
            ok = old == text
            bad += not ok
            print(("ok   " if ok else "DIFF ") + stem)
    return bad


def main(argv):
    if argv[:1] == ["--selftest"]:
        selftest()
    elif argv[:1] == ["--all"]:
        sys.exit(1 if run_all("--write" in argv) else 0)
    elif argv[:1] == ["eight"]:
        print("\n".join(eight(argv[1:])))
    elif argv[:1] == ["fifteen"]:
        print("\n".join(fifteen(argv[1:])))
    elif argv[:1] == ["compare"]:
        print("\n".join(compare(argv[1:])))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
