#!/usr/bin/env python3
"""The style matrix (issue 43): the same computation written the ways users write it.

Each folder of bench/style/ is one computation: its ds programs (one per style: while or
for-range, `i = i + 1` or `i += 1` or `i++`, top level or demon, demon or lambda, `r = r + "ab"`
or `r += "ab"`, graph loops with `for X in` or `exists`), a Python twin or two (run as
`python3 -S`) and, where it makes sense, a Lua 5.4 twin. Every program of a computation must
print the same output; the runner checks it.

The report, for each computation: each style's least CPU time over the repetitions (all the
programs of a computation run alternately, in one run), its time over the fastest style's, and
over the fastest Lua and Python twins'; then the slowest style over the fastest.

Usage:
    python3 bench/style.py [--reps N] [--ds PATH] [--markdown] [COMPUTATION ...]

`cargo build --release` first; the default interpreter is target/release/ds.
"""

import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import LUA, PY, ROOT, run_once  # noqa: E402

STYLE = os.path.join(ROOT, "bench", "style")


def programs(computation):
    """The ds styles and the twins of a computation: (label, command) pairs."""
    folder = os.path.join(STYLE, computation)
    ds = sorted(p for p in glob.glob(os.path.join(folder, "*.ds")) if not p.endswith("setup.ds"))
    py = sorted(glob.glob(os.path.join(folder, "*.py")))
    lua = sorted(glob.glob(os.path.join(folder, "*.lua"))) if os.path.exists(LUA) else []
    name = lambda p: os.path.splitext(os.path.basename(p))[0]  # noqa: E731
    return ([(name(p), p) for p in ds], [("python " + name(p), PY + [p]) for p in py],
            [("lua " + name(p), [LUA, p]) for p in lua])


def measure(ds, computation, reps):
    styles, py, lua = programs(computation)
    runs = [(label, [ds, path]) for label, path in styles] + py + lua
    best = {label: None for label, _ in runs}
    outputs = {}
    for _ in range(reps):
        for label, cmd in runs:
            cpu, _, out = run_once(cmd)
            best[label] = cpu if best[label] is None else min(best[label], cpu)
            outputs[label] = out
    expected = outputs[runs[0][0]]
    wrong = [label for label, _ in runs if outputs[label] != expected]
    return [label for label, _ in styles], [l for l, _ in py], [l for l, _ in lua], best, wrong


def report(computation, result, markdown):
    styles, py, lua, best, wrong = result
    fastest = min(best[s] for s in styles)
    slowest = max(best[s] for s in styles)
    best_py = min((best[p] for p in py), default=None)
    best_lua = min((best[l] for l in lua), default=None)
    ratio = lambda a, b: "%.2f" % (a / b) if b else "-"  # noqa: E731
    if markdown:
        print("\n%s: slowest/fastest **%.2f**%s\n" % (computation, slowest / fastest,
                                                    " **outputs differ: %s**" % wrong if wrong else ""))
        print("| style | CPU s | /fastest | /lua | /python |")
        print("|---|---:|---:|---:|---:|")
        for s in styles:
            print("| %s | %.3f | %.2f | %s | %s |" % (s, best[s], best[s] / fastest, ratio(best[s], best_lua),
                                                  ratio(best[s], best_py)))
        for t in py + lua:
            print("| %s | %.3f | | | |" % (t, best[t]))
    else:
        print("%s: slowest/fastest %.2f  outputs %s" % (computation, slowest / fastest,
                                                       "differ: %s" % wrong if wrong else "same"))
        for s in styles:
            print("  %-22s %7.3f s  /fastest %5.2f  /lua %5s  /python %5s" % (
                s, best[s], best[s] / fastest, ratio(best[s], best_lua), ratio(best[s], best_py)))
        for t in py + lua:
            print("  %-22s %7.3f s" % (t, best[t]))
    sys.stdout.flush()
    return not wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("computations", nargs="*")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    args = ap.parse_args()
    chosen = args.computations or sorted(os.listdir(STYLE))
    ok = True
    for c in chosen:
        ok = report(c, measure(args.ds, c, args.reps), args.markdown) and ok
    if not ok:
        sys.exit("some outputs differ")


if __name__ == "__main__":
    main()
