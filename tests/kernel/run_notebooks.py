"""Runs docs/notebooks/*.ipynb headless on the ds kernel (nbclient) and checks their outputs for
the known answers of docs/problems.md (the wolf puzzle and the 8-puzzle), README.md and, for
blocksworld in PDDL, tests/oracle/pddl/oracle.py and reasoning.

Needs the kernelspec `ds` installed where jupyter_client finds it. Each notebook runs in a
temporary folder (the files it exports go there). Exit status 0 when every check passes.

Run: python tests/kernel/run_notebooks.py [--save DIR] [--only NAME.ipynb]   (--save keeps the
executed notebooks)
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import nbformat
from nbclient import NotebookClient

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(HERE, "..", "..", "docs", "notebooks")

# problems.md, problem 1: the seed's 17 actions (goat first) and, with a second farmer, 10.
WOLF_PLAN = ("Start;f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;"
             "f.m.$1;f.t.g;f.m.$2;f.p")
TWO_FARMERS_PLAN = "Start;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p"


def execute(name, folder):
    for attempt in (1, 2):
        nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
        client = NotebookClient(nb, timeout=300, kernel_name="ds",
                                resources={"metadata": {"path": folder}})
        try:
            client.execute()  # raises on a cell that ends in an error
            return nb
        except RuntimeError as e:
            if attempt == 2 or not port_race(e):
                raise
            print(f"note  {name}: the kernel could not start ({e}); started again")


def stdout(nb):
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                   for o in c.outputs if o.output_type == "stream" and o.name == "stdout")


def results(nb, mime):
    return [o.data[mime] for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "execute_result" and mime in o.data]


def shown_tables(nb):
    """The HTML tables the cells show: `Search.compare` shows its rows as one while it runs."""
    return [o.data["text/html"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type in ("execute_result", "display_data") and "<table>" in o.data.get("text/html", "")]


def table_column(html, column):
    """The cells of one column of an HTML table as the kernel writes compare's rows."""
    head = re.findall(r"<th>(.*?)</th>", html)
    at = head.index(column)
    return [re.findall(r"<td>(.*?)</td>", row)[at] for row in html.split("<tr>")[2:]]


def check_wolf(nb, folder):
    out = stdout(nb)
    yield "the seed's solver prints its queues (README)", "Close: 27 0\n" in out
    yield "the seed's solver finds the 17 actions", WOLF_PLAN + "\n" in out
    yield "a second farmer: 10 actions", TWO_FARMERS_PLAN + "\n" in out
    yield "Search.bfs finds the solver's state", "the same state as the solver's: True" in out
    plan = WOLF_PLAN.split(";")[1:]
    yield "Search.bfs's actions", f"actions (17): {' '.join(plan)}" in out
    svgs = results(nb, "image/svg+xml")
    yield "the worlds are drawn", len(svgs) >= 3 and all(s.startswith("<svg") for s in svgs)
    yield "the start is drawn with its six nodes", all(f">{n}</text>" in svgs[0] for n in "fwgc12")
    tables = shown_tables(nb)
    yield "compare shows a table", len(tables) == 1
    lengths = table_column(tables[0], "length") if tables else []
    algorithms = table_column(tables[0], "algorithm") if tables else []
    # bfs, iddfs and ucs (unit costs) are optimal: 17; dfs finds some plan.
    yield "compare's optimal rows have 17 actions", (
        dict(zip(algorithms, lengths)).get("bfs") == "17"
        and dict(zip(algorithms, lengths)).get("iddfs") == "17"
        and dict(zip(algorithms, lengths)).get("ucs") == "17")
    yield "the space is exported as JSON text", re.search(r"JSON: \{.* \.\.\.\n", out) is not None
    # Jupyter runs a notebook in its folder, here docs/notebooks: it must write nothing there.
    yield "running it wrote no file", os.listdir(folder) == []
    # tests/expected/wolf_search.out, from the independent oracle tests/oracle/wolf_oracle.py:
    # 30 states, 60 transitions, the goal is state 27.
    yield "the space's size and goal", "30 states, 60 transitions\n" in out and "\ngoal states: [27]\n" in out
    yield "the space is drawn", any("state space: 30 states, 60 transitions" in s and ">27 (goal)<" in s
                                    for s in svgs)


def check_eight(nb, folder):
    out = stdout(nb)
    # 283164705 against 123804765: tiles 2, 8, 1 and 6 are misplaced; their Manhattan
    # distances are 1 + 2 + 1 + 1 (worked by hand).
    yield "the heuristics of the start", "misplaced: 4, manhattan: 5" in out
    yield "A* finds 5 moves with each heuristic", out.count("5 moves: ") == 2
    html = results(nb, "text/html")
    tables = shown_tables(nb)
    yield "compare shows a table", len(tables) == 1
    lengths = table_column(tables[0], "length") if tables else []
    yield "every algorithm compared finds 5 moves (problems.md)", lengths == ["5"] * 4
    replays = [h for h in html if "ds-replay" in h]
    frames = json.loads(re.search(r"var frames = (\[.*?\]), keys", replays[0]).group(1)) if replays else []
    expands = sum(f["fields"][0] == "expand" for f in frames)
    said = re.search(r"bfs expanded (\d+) states; the record has (\d+) expand events", out)
    yield "the record shows BFS's expansions step by step", bool(
        said and said.group(1) == said.group(2) == str(expands) and expands > 0 and frames[-1]["expanded"] == expands)
    # problems.md: the goal is 5 moves from the start; BFS's last event is the goal's.
    yield "the last step is the goal, 5 moves deep", bool(
        frames and frames[-1]["fields"][0] == "goal" and frames[-1]["fields"][6] == "5")
    yield from check_replay_boards(replays[1] if len(replays) > 1 else "")
    drawn = results(nb, "image/svg+xml")
    boards = [b for b in drawn if "state space" not in b]
    yield "the boards are drawn, eight tiles each", len(boards) == 2 and all(b.count("<rect") == 8 for b in boards)
    spaces = [b for b in drawn if "state space" in b]
    views = re.findall(r"<g transform=.*?</g>", spaces[0], re.S) if spaces else []
    digits = [re.findall(r">(\d)</text>", v) for v in views]
    # Numbered breadth-first, moves in the order up, down, left, right: the start 283164705,
    # then the blank up (283104765), left (283164075), right (283164750).
    yield "the space is drawn with its boards, the start first", len(views) == 10 and [
        "".join(d) for d in digits[:4]] == ["28316475", "28314765", "28316475", "28316475"]


def board_of(svg):
    """The cells of a board drawn by the notebook's `board` (40-pixel cells, a tile's number at
    x + 16, y + 26 of its cell), row by row, 0 for the blank."""
    cells = ["0"] * 9
    for x, y, tile in re.findall(r'<text x="(\d+)" y="(\d+)"[^>]*>(\d)</text>', svg):
        cells[(int(y) - 26) // 40 * 3 + (int(x) - 16) // 40] = tile
    return "".join(cells)


def check_replay_boards(html):
    """A* with Manhattan distance from 013824765, two moves from the goal, stepped through with
    each state's board. Worked by hand: the start (h = 2: the 1 and the 2 one cell off) is
    expanded; the blank at the top left moves down (813024765, state 1, h = 3) or right
    (103824765, state 2, h = 1); state 2 (f = 2) is expanded: down is the goal (state 3), left
    the start again (a duplicate), right 130824765 (state 4, h = 2); the goal (f = 2) is taken
    out next."""
    found = re.search(r"var frames = (\[.*?\]), keys = .*?, views = (\{.*?\}), order = ", html)
    frames, views = (json.loads(found.group(1)), json.loads(found.group(2))) if found else ([], {})
    steps = [(f["fields"][0], f["fields"][1], f["fields"][2]) for f in frames]
    yield "A* from two moves away, event by event", steps == [
        ("push", "0", "Undef"), ("expand", "0", "Undef"), ("push", "1", "0"), ("push", "2", "0"),
        ("expand", "2", "0"), ("push", "3", "2"), ("duplicate", "0", "2"),
        ("push", "4", "2"), ("goal", "3", "2")]
    # Each entry's rank, by (f, h, arrival): the goal 3 (2, 0), 2 (2, 1), the start (2, 2),
    # 4 (4, 2), 1 (4, 3).
    yield "A*'s entries ranked by f, then h, then arrival", [f.get("rank") for f in frames] == [
        2, None, 4, 1, None, 0, None, 3, None]
    boards = {state: board_of(svg) for state, svg in views.items()}
    yield "each state of the replay is drawn as its board", boards == {
        "0": "013824765", "1": "813024765", "2": "103824765", "3": "123804765", "4": "130824765"}


PDDL = os.path.join(HERE, "..", "..", "scripts", "pddl")
ORACLE = os.path.join(HERE, "..", "oracle", "pddl", "oracle.py")
# blocks-5: e off d, then d, c, b and a onto their places, two actions each; no other plan of
# 10 actions (c can go onto d only once d is on e, and b onto c only after).
BLOCKS_PLAN = ["(unstack e d)", "(put-down e)", "(unstack d b)", "(stack d e)", "(unstack c a)",
               "(stack c d)", "(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"]


def oracle(*args):
    files = [os.path.join(PDDL, "blocks.pddl"), os.path.join(PDDL, "blocks-5.pddl")]
    return subprocess.run([sys.executable, "-S", ORACLE, args[0], *files, *args[1:]],
                          capture_output=True, text=True, check=True).stdout.strip()


def stacks_of(svg):
    """The stacks a blocks view draws (each block's letter in its square), left to right, each
    bottom first."""
    columns = {}
    for x, y, block in re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([a-e])</text>', svg):
        columns.setdefault(float(x), []).append((float(y), block))
    return [[b for _, b in sorted(c, reverse=True)] for _, c in sorted(columns.items())]


def check_blocks(nb, folder):
    out = stdout(nb)
    source = "".join(nb.cells[1].source)
    texts = [open(os.path.join(PDDL, f)).read() for f in ("blocks.pddl", "blocks-5.pddl")]
    yield "the notebook's PDDL is scripts/pddl's", all(t in source for t in texts)
    svgs = results(nb, "image/svg+xml")
    # blocks-5.pddl's init: c on a; e on d on b
    yield "the start is drawn: [a c] and [b d e]", len(svgs) == 2 and stacks_of(svgs[0]) == [["a", "c"], ["b", "d", "e"]]
    yield "A* with LM-cut: the oracle's cost", oracle("cost") == "10" and "cost: 10 actions: 10\n" in out
    plan = re.findall(r"^(\([^)]*\)) -> ", out, re.M)
    yield "the one plan of 10 actions", plan == BLOCKS_PLAN
    with tempfile.NamedTemporaryFile("w", suffix=".plan", delete=False) as f:
        f.write("\n".join(plan) + "\n; cost = 10 (unit cost)\n")
    yield "the oracle validates the plan", oracle("validate", f.name) == "10"
    os.unlink(f.name)
    yield "the goal is drawn: one tower, e at the bottom", len(svgs) == 2 and stacks_of(svgs[1]) == [["e", "d", "c", "b", "a"]]
    tables = shown_tables(nb)
    yield "compare shows a table", len(tables) == 1
    column = lambda name: table_column(tables[0], name) if tables else []
    yield "compare: blind and LM-cut rows", column("algorithm") == ["astar blind", "astar"]
    yield "both optimal: 10 actions", column("length") == ["10", "10"] and column("cost") == ["10", "10"]
    expanded = [int(x) for x in column("expanded")]
    yield "LM-cut expands fewer states than blind", len(expanded) == 2 and expanded[1] < expanded[0]
    yield "running it wrote no file", os.listdir(folder) == []


def main():
    save = sys.argv[sys.argv.index("--save") + 1] if "--save" in sys.argv else None
    passed = failed = 0
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    for name, check in [("wolf.ipynb", check_wolf), ("eight.ipynb", check_eight), ("blocks.ipynb", check_blocks)]:
        if only and name != only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            nb = None
            try:
                nb = execute(name, folder)
                checks = list(check(nb, folder))
            except Exception as e:  # a cell's error, a kernel that died
                checks = [(f"runs without errors: {type(e).__name__}: {e}", False)]
            if save and nb is not None:
                os.makedirs(save, exist_ok=True)
                nbformat.write(nb, os.path.join(save, name))
        for what, ok in checks:
            print(f"{'ok' if ok else 'FAIL'}  {name}: {what}")
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
