"""ds plan against Fast Downward (PyPI's up-fast-downward) on generated instances: the same
optimal cost with astar+blind and astar+lmcut, and with astar+blind the same number of states
expanded until the last f-layer (docs/planning.md, "Compared with Fast Downward").

    python compare_fd.py DS FAST_DOWNWARD_PY     (FAST_DOWNWARD_PY: the package's fast-downward.py)

Seconds in all: a few small instances of each generated domain.
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INSTANCES = [("gripper", 4, 1), ("blocks", 6, 2), ("miconic", 4, 3), ("logistics", 3, 4), ("visit", 7, 5), ("roads", 6, 6)]


def ds_plan(ds, d, p, h):
    r = subprocess.run([ds, "plan", d, p, "--h", h], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    cost = int(re.search(r"; cost = (\d+)", r.stdout).group(1))
    jump = int(re.search(r"expanded_until_last_jump: (\d+)", r.stderr).group(1))
    return cost, jump


def fd_plan(fd, d, p, h, work):
    r = subprocess.run(
        [sys.executable, fd, "--plan-file", os.path.join(work, "fd.plan"), d, p, "--search", "astar(%s())" % h],
        capture_output=True, text=True, timeout=300, cwd=work)
    assert r.returncode == 0, r.stdout + r.stderr
    cost = int(re.search(r"Plan cost: (\d+)", r.stdout).group(1))
    jump = int(re.search(r"Expanded until last jump: (\d+)", r.stdout).group(1))
    return cost, jump


def main(argv):
    ds, fd = argv[1], argv[2]
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for name, size, seed in INSTANCES:
            folder = os.path.join(work, "%s-%d" % (name, size))
            subprocess.run([sys.executable, "-S", os.path.join(HERE, "gen.py"), name, str(size), str(seed), folder], check=True)
            d, p = os.path.join(folder, "domain.pddl"), os.path.join(folder, "problem.pddl")
            ours_blind, ours_lmcut = ds_plan(ds, d, p, "blind"), ds_plan(ds, d, p, "lmcut")
            fd_blind, fd_lmcut = fd_plan(fd, d, p, "blind", folder), fd_plan(fd, d, p, "lmcut", folder)
            ok = ours_blind == fd_blind and ours_lmcut[0] == fd_lmcut[0]
            failures += not ok
            print("%-14s cost %d/%d  blind expanded until last jump %d/%d  %s" % (
                "%s-%d" % (name, size), ours_lmcut[0], fd_lmcut[0], ours_blind[1], fd_blind[1], "ok" if ok else "DIFFERENT"))
    print("%d of %d instances agree with Fast Downward" % (len(INSTANCES) - failures, len(INSTANCES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
