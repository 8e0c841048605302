#!/usr/bin/env python3
"""Benchmarks: fixed programs in ds and their twins in Python, run side by side.

Each benchmark runs the ds program (bench/programs/NAME.ds, or a script) and its Python twin
(run as `python3 -S`: the site import would add 30-40 ms to every run) on this machine in the
same run, alternating, several times; it reports the best CPU time (user + system) of each, the
ratio ds/python, and the peak resident memory of both. Both programs must print the same
output, or the benchmark is reported as a mismatch. Where a Lua twin exists
(bench/programs/NAME.lua, or the ds program's own twin: maps.lua for maps.ds, given the same
arguments) and `lua5.4` is installed, it runs too, with the ratio ds/lua.

Usage:
    python3 bench/run.py [--reps N] [--ds PATH] [--markdown] [NAME ...]
    python3 bench/run.py --memory [--ds PATH]      bytes per stored world state

`cargo build --release` first; the default interpreter is target/release/ds. Names pick a
subset (see BENCHMARKS below); `--list` prints them.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "bench", "programs")
PY = [sys.executable, "-S"]
LUA = "/usr/bin/lua5.4"

# name, what it measures, ds arguments, python arguments (paths relative to the repository)
BENCHMARKS = [
    ("fib", "recursive fib(30): demon calls, arithmetic",
     ["bench/programs/fib.ds"], ["bench/programs/fib.py"]),
    ("loop", "while loop, 3 million iterations of arithmetic",
     ["bench/programs/loop.ds"], ["bench/programs/loop.py"]),
    ("maps", "1e6 updates M[K] = M[K] + 1 over 10,007 number keys, and a read each",
     ["bench/programs/maps.ds"], ["bench/programs/maps.py"]),
    ("maps_shuffled", "the same, the map filled in the stride's order (found by hash, not as an array)",
     ["bench/programs/maps.ds", "shuffled"], ["bench/programs/maps.py", "shuffled"]),
    ("puzzle8", "8-puzzle full BFS: 181,440 string states, map visited",
     ["bench/programs/puzzle8.ds"], ["bench/programs/puzzle8.py"]),
    ("puzzle8_queue", "the same BFS with the seed's queue: unshift at the front, pop from the back",
     ["bench/programs/puzzle8_queue.ds"], ["bench/programs/puzzle8_queue.py"]),
    ("wolf", "scripts/wolf.ds (27 states) vs a hash-set solver",
     ["scripts/wolf.ds"], ["bench/programs/wolf_solver.py", "tests/oracle/worlds/wolf.json"]),
    ("wolf_chain", "scripts/wolf_chain.ds (434 states) vs a hash-set solver",
     ["scripts/wolf_chain.ds"], ["bench/programs/wolf_solver.py", "tests/oracle/worlds/wolf_chain.json"]),
    ("wolf_road", "seed demons, linear Close.is, 12,111 states vs a hash-set solver",
     ["bench/programs/wolf_road.ds"], ["bench/programs/wolf_solver.py", "bench/programs/wolf_road.json"]),
    ("wolf_crowd", "seed demons, linear Close.is, 18,213 states vs a hash-set solver",
     ["bench/programs/wolf_crowd.ds"], ["bench/programs/wolf_solver.py", "bench/programs/wolf_crowd.json"]),
    ("states_copy", "300,000 copies of a 100-fact state, one edge changed each",
     ["bench/programs/states.ds", "copy"], ["bench/programs/states.py", "copy"]),
    ("states_equal", "4 million == between states",
     ["bench/programs/states.ds", "equal"], ["bench/programs/states.py", "equal"]),
    ("states_is", "6,000 Array.is / `in list` over 3,000 states",
     ["bench/programs/states.ds", "is"], ["bench/programs/states.py", "is"]),
]


def run_once(cmd):
    """Runs cmd; returns (CPU seconds, peak RSS in KiB, stdout). The CPU time (user + system,
    from wait4, to the microsecond) is the measure: on a shared machine it is steadier than the
    wall clock, which also counts the time other processes held the CPU. The peak RSS comes from
    GNU time (`/usr/bin/time -f %M`) wrapped around the command, when it is installed (wait4's
    own figure would include the memory of this Python process, forked before the exec)."""
    with tempfile.NamedTemporaryFile() as rss, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        wrap = ["/usr/bin/time", "-f", "%M", "-o", rss.name] if os.path.exists("/usr/bin/time") else []
        pid = subprocess.Popen(wrap + cmd, cwd=ROOT, stdout=out, stderr=err).pid
        _, status, usage = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit("failed: %s\n%s" % (" ".join(cmd), err.read().decode()))
        peak = int(open(rss.name).read().split()[-1]) if wrap else 0
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, peak, out.read().decode()


def lua_command(name, ds_args):
    """The Lua twin's command: bench/programs/NAME.lua, or else the ds program's own twin
    (maps.lua beside maps.ds) with the same arguments; None without one or without lua5.4."""
    own = os.path.join(PROGRAMS, name + ".lua")
    twin = os.path.join(ROOT, os.path.splitext(ds_args[0])[0] + ".lua")
    if not os.path.exists(LUA):
        return None
    if os.path.exists(own):
        return [LUA, own]
    if os.path.exists(twin):
        return [LUA, twin] + ds_args[1:]
    return None


def measure(ds, name, ds_args, py_args, reps):
    ds_cmd = [ds] + [os.path.join(ROOT, a) if a.endswith((".ds", ".json")) else a for a in ds_args]
    py_cmd = PY + [os.path.join(ROOT, a) if a.endswith((".py", ".json")) else a for a in py_args]
    lua_cmd = lua_command(name, ds_args)
    ds_runs = []
    py_runs = []
    lua_runs = []
    for _ in range(reps):
        ds_runs.append(run_once(ds_cmd))
        py_runs.append(run_once(py_cmd))
        if lua_cmd:
            lua_runs.append(run_once(lua_cmd))
    return {
        "lua": min(r[0] for r in lua_runs) if lua_runs else None,
        "same_lua": not lua_runs or lua_runs[-1][2] == ds_runs[-1][2],
        "name": name,
        "ds": min(r[0] for r in ds_runs),
        "py": min(r[0] for r in py_runs),
        "same": ds_runs[-1][2] == py_runs[-1][2],
        "rss": max(r[1] for r in ds_runs),
        "py_rss": max(r[1] for r in py_runs),
    }


def bytes_per_state(ds):
    """Peak RSS of bench/programs/memory.ds keeping 100,000 and 200,000 states: the difference
    divided by 100,000 is what one more stored state costs."""
    peaks = []
    for n in (100000, 200000):
        _, peak, _ = run_once([ds, os.path.join(PROGRAMS, "memory.ds"), str(n)])
        peaks.append(peak)
    print("peak RSS with 100,000 states: %.1f MiB; with 200,000: %.1f MiB; %d bytes per state"
          % (peaks[0] / 1024, peaks[1] / 1024, (peaks[1] - peaks[0]) * 1024 // 100000))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--memory", action="store_true", help="measure the bytes per stored state")
    args = ap.parse_args()
    if args.memory:
        bytes_per_state(args.ds)
        return
    if args.list:
        for name, what, _, _ in BENCHMARKS:
            print("%-14s %s" % (name, what))
        return
    chosen = [b for b in BENCHMARKS if not args.names or b[0] in args.names]
    if args.markdown:
        print("| benchmark | what | ds CPU s | python CPU s | ds/python | lua CPU s | ds/lua "
              "| ds peak RSS MiB | python peak RSS MiB |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print("%-14s %9s %9s %9s %9s %9s %10s %10s  %s" % (
            "benchmark", "ds s", "python s", "ds/py", "lua s", "ds/lua", "ds MiB", "py MiB", "output"))
    for name, what, ds_args, py_args in chosen:
        r = measure(args.ds, name, ds_args, py_args, args.reps)
        ratio = r["ds"] / r["py"]
        same = r["same"] and r["same_lua"]
        lua = ("%.3f" % r["lua"], "%.2f" % (r["ds"] / r["lua"])) if r["lua"] else ("-", "-")
        if args.markdown:
            print("| %s | %s | %.3f | %.3f | %.2f | %s | %s | %.1f | %.1f |%s" % (
                name, what, r["ds"], r["py"], ratio, lua[0], lua[1], r["rss"] / 1024, r["py_rss"] / 1024,
                "" if same else " **output differs**"))
        else:
            print("%-14s %9.3f %9.3f %9.2f %9s %9s %10.1f %10.1f  %s" % (
                name, r["ds"], r["py"], ratio, lua[0], lua[1], r["rss"] / 1024, r["py_rss"] / 1024,
                "same" if same else "MISMATCH"))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
