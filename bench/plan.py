"""ds plan against Fast Downward and pyperplan (issue 53), on instances made by the project's
generators (tests/oracle/pddl/gen.py), in three parts:

1. A* with the blind heuristic on gripper (10 balls: the competition's gripper-4) and miconic
   (8 passengers): states expanded and the CPU time of the whole run (user + system: on a
   loaded machine wall time says little; Fast Downward's includes its Python translator, ds's
   its grounding), for ds, Fast Downward and pyperplan.
2. A* with LM-cut on gripper-10 and miconic-16: the CPU time per expanded state (Fast
   Downward's "Search time", which is CPU time of the search alone; ds's whole run, whose
   grounding takes a millisecond here), and ds's over Fast Downward's.
3. Memory: A* blind on gripper-12 and miconic-9, the peak resident set of ds and of Fast
   Downward's search binary (run on the translated task, so that no Python process counts),
   less each one's peak on a one-ball gripper, divided by the states stored (with GNU time,
   /usr/bin/time; without it this part is left out).

    python3 bench/plan.py DS VENV      (VENV: a virtual environment with up-fast-downward and
                                        pyperplan from PyPI)
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLIND = [("gripper", 10, 1), ("miconic", 8, 1)]
LMCUT = [("gripper", 10, 1), ("miconic", 16, 1)]
MEMORY = [("gripper", 12, 1), ("miconic", 9, 1)]


# GNU time reports the peak resident set of the program alone: a child of this script counts
# the Python process it was forked from until it executes the program.
TIME = "/usr/bin/time"


def run(cmd, stdin=None, cwd=None):
    """Runs cmd; (its standard output and error, CPU seconds, peak resident set in KB, or -1
    without GNU time)."""
    measured = os.path.exists(TIME)
    with tempfile.TemporaryFile() as out:
        wrapped = [TIME, "-f", "peak_kb: %M"] + cmd if measured else cmd
        p = subprocess.Popen(wrapped, stdin=stdin, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0
        out.seek(0)
        text = out.read().decode(errors="replace")
    return text, usage.ru_utime + usage.ru_stime, number(text, r"peak_kb: (\d+)")


def number(text, pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else -1


def generate(work, name, size, seed):
    folder = os.path.join(work, "%s-%d" % (name, size))
    subprocess.run([sys.executable, "-S", os.path.join(ROOT, "tests/oracle/pddl/gen.py"), name, str(size), str(seed), folder], check=True)
    return folder, os.path.join(folder, "domain.pddl"), os.path.join(folder, "problem.pddl")


def blind(work, ds, py, fd, venv):
    print("A* blind: expanded states and CPU time of the whole run")
    for name, size, seed in BLIND:
        folder, d, p = generate(work, name, size, seed)
        rows = [
            ("ds", [ds, "plan", d, p], r"expanded: (\d+)"),
            ("fast downward", [py, fd, "--plan-file", os.path.join(folder, "fd.plan"), d, p, "--search", "astar(blind())"], r"Expanded (\d+) state"),
            ("pyperplan", [os.path.join(venv, "bin", "pyperplan"), "-s", "astar", "-H", "blind", d, p], r"(\d+) Nodes expanded"),
        ]
        for planner, cmd, pattern in rows:
            text, cpu, _ = run(cmd)
            n = number(text, pattern)
            print("  %-12s %-14s expanded %9d  cpu %6.2f s  %9.0f expanded/s" % ("%s-%d" % (name, size), planner, n, cpu, n / cpu if cpu else 0))


def lmcut(work, ds, py, fd):
    print("A* LM-cut: CPU time of the search per expanded state")
    for name, size, seed in LMCUT:
        folder, d, p = generate(work, name, size, seed)
        # (Fast Downward's "Search time" is CPU time: ds's is its whole run's, grounding included)
        text, ds_s, _ = run([ds, "plan", d, p, "--h", "lmcut"])
        ds_n = number(text, r"expanded: (\d+)")
        text, _, _ = run([py, fd, "--plan-file", os.path.join(folder, "fd.plan"), d, p, "--search", "astar(lmcut())"])
        fd_n, fd_s = number(text, r"Expanded (\d+) state"), number(text, r"Search time: ([\d.]+)s")
        per = lambda s, n: 1e6 * s / n if n > 0 else 0
        for planner, n, s in [("ds", ds_n, ds_s), ("fast downward", fd_n, fd_s)]:
            print("  %-12s %-14s expanded %9d  cpu %6.2f s  %7.1f us/state" % ("%s-%d" % (name, size), planner, n, s, per(s, n)))
        ratio = per(ds_s, ds_n) / per(fd_s, fd_n) if per(fd_s, fd_n) else 0
        print("  %-12s ds / fast downward per state: %.2f" % ("%s-%d" % (name, size), ratio))


def memory(work, ds, py, fd, search):
    print("A* blind: peak resident set, and bytes per stored state above a one-ball task's peak")

    def translated(folder, d, p):
        sas = os.path.join(folder, "output.sas")
        subprocess.run([py, fd, "--sas-file", sas, "--translate", d, p], check=True, capture_output=True)
        return sas

    def fd_run(sas):
        # (in the task's folder, where it writes its plan, sas_plan)
        with open(sas) as f:
            text, _, peak = run([search, "--search", "astar(blind())"], stdin=f, cwd=os.path.dirname(sas))
        return number(text, r"Evaluated (\d+) state"), peak

    def ds_run(d, p):
        text, _, peak = run([ds, "plan", d, p])
        return number(text, r"\nstates: (\d+)"), peak

    if not os.path.exists(TIME):
        print("  (no %s: the peak resident set of a program alone is not measured)" % TIME)
        return
    folder, d, p = generate(work, "gripper", 1, 1)
    base = {"ds": ds_run(d, p)[1], "fast downward": fd_run(translated(folder, d, p))[1]}
    print("  base peak: ds %d KB, fast downward's search %d KB" % (base["ds"], base["fast downward"]))
    for name, size, seed in MEMORY:
        folder, d, p = generate(work, name, size, seed)
        results = {"ds": ds_run(d, p), "fast downward": fd_run(translated(folder, d, p))}
        per = {k: (peak - base[k]) * 1024 / n if n > 0 else 0 for k, (n, peak) in results.items()}
        for planner, (n, peak) in results.items():
            print("  %-12s %-14s states %9d  peak %7d KB  %5.1f bytes/state" % ("%s-%d" % (name, size), planner, n, peak, per[planner]))
        ratio = per["ds"] / per["fast downward"] if per["fast downward"] else 0
        print("  %-12s ds / fast downward per state: %.2f" % ("%s-%d" % (name, size), ratio))


def main(argv):
    ds, venv = argv[1], argv[2]
    py = os.path.join(venv, "bin", "python")
    spec = subprocess.run([py, "-c", "import importlib.util as u; print(u.find_spec('up_fast_downward').submodule_search_locations[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    fd = os.path.join(spec, "downward", "fast-downward.py")
    search = os.path.join(spec, "downward", "builds", "release", "bin", "downward")
    with tempfile.TemporaryDirectory() as work:
        blind(work, ds, py, fd, venv)
        lmcut(work, ds, py, fd)
        memory(work, ds, py, fd, search)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
