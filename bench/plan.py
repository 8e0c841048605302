"""ds plan against Fast Downward and pyperplan (issue 53): A* with the blind heuristic on the
generated gripper (10 balls: the competition's gripper-4) and miconic (8 passengers) instances.
Prints, per planner, the states expanded and the CPU time of the whole run (user + system, from
the children's rusage: on a loaded machine wall time says little; Fast Downward's includes its
Python translator, ds's its grounding).

    python3 bench/plan.py DS VENV      (VENV: a virtual environment with up-fast-downward and
                                        pyperplan from PyPI)
"""

import importlib.util
import os
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INSTANCES = [("gripper", 10, 1), ("miconic", 8, 1)]


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r.stdout + r.stderr, cpu


def expanded(text, pattern):
    m = re.search(pattern, text)
    return int(m.group(1)) if m else -1


def main(argv):
    ds, venv = argv[1], argv[2]
    py = os.path.join(venv, "bin", "python")
    spec = subprocess.run([py, "-c", "import importlib.util as u; print(u.find_spec('up_fast_downward').submodule_search_locations[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    fd = os.path.join(spec, "downward", "fast-downward.py")
    with tempfile.TemporaryDirectory() as work:
        for name, size, seed in INSTANCES:
            folder = os.path.join(work, name)
            subprocess.run([sys.executable, "-S", os.path.join(ROOT, "tests/oracle/pddl/gen.py"), name, str(size), str(seed), folder], check=True)
            d, p = os.path.join(folder, "domain.pddl"), os.path.join(folder, "problem.pddl")
            rows = [
                ("ds", [ds, "plan", d, p], r"expanded: (\d+)"),
                ("fast downward", [py, fd, "--plan-file", os.path.join(folder, "fd.plan"), d, p, "--search", "astar(blind())"], r"Expanded (\d+) state"),
                ("pyperplan", [os.path.join(venv, "bin", "pyperplan"), "-s", "astar", "-H", "blind", d, p], r"(\d+) Nodes expanded"),
            ]
            for planner, cmd, pattern in rows:
                text, cpu = run(cmd)
                n = expanded(text, pattern)
                print("%-10s %-14s expanded %9d  cpu %6.2f s  %9.0f expanded/s" % ("%s-%d" % (name, size), planner, n, cpu, n / cpu if cpu else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
