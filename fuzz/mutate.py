#!/usr/bin/env python3
"""The mutation campaign: seeded random mutations of ds scripts, each run under the limits
of an untrusted script, checked for the promises of docs/language.md, decisions 9-11 and 19.

Every mutant must
  - end with exit status 0 or 1 (2 only for an include that cannot be read),
  - never panic, abort or die of a signal,
  - stop within its limits (--timeout, --max-steps, --max-memory): a run still going after
    the wall-clock cap has run past them,
  - keep its output: each mutant starts by printing a marker, so a run that compiled and
    exited 0 or 1 without the marker on standard output lost it.

Mutants are made from every script (scripts/**/*.ds, the Search scripts included, the
explorer's tests/browser/*.ds, the benchmark programs bench/programs/*.ds) and the fuzz seeds
(fuzz/seeds/*.ds) by 1-4 of: inserting a fragment of the language or a stress snippet (large
ranges, deep recursion, long strings, big graphs, self-referring containers), deleting,
duplicating or moving a piece, replacing a number by an extreme one, and splicing in a line of
another script. Mutant i of seed S is the same on every machine.

Usage (from the repository root, after `cargo build --profile release-dev`):
    python3 -S fuzz/mutate.py --seed 11 --count 30000 [--ds target/release-dev/ds] [--out DIR]
                              [--from N] [--quiet]

Each run: `ds --sandbox --max-memory 256M --max-steps 2000000 --timeout 1 MUTANT`, in a
scratch folder that also holds a copy of the folders beside the seed (so that the `#include`s of
scripts/wolf_search.ds or scripts/eight.ds are found and the mutant runs), under an address-space limit of 2 GB, killed after 20 s of wall clock. The
summary counts outcomes; failures are written to DIR (default fuzz/failures/) with the mutant
and what ds printed. The exit status is 1 when any mutant failed.
"""

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "<<ds-mutant-start>>"
LIMITS = ["--sandbox", "--max-memory", "256M", "--max-steps", "2000000", "--timeout", "1"]
WALL_CAP = 20.0
ADDRESS_SPACE = 2 << 30
KEEP = 1 << 16  # bytes of output kept for the record

FRAGMENTS = [
    "(", ")", "[", "]", "{", "}", ",", ",,", ";", ":", "\n", "=", "==", "!", "?", "->", "<->", "&", "|",
    "+", "-", "*", "/", "\\", "%", "++", "--", "+=", ".", "=>", "$1", "@on", "on", "isa", "True",
    "Undef", "None", "0", "-1", "1e308", "\"s\"", "'", "\"", "/*", "*/", "//", "if", "else", "false",
    "undef", "while", "for", "in", "def", "return", "break", "continue", "var", "global", "static",
    "out", "nodes", "edges", "GRAPH", "exists(", "forall(", "range(", ".copy()", ".size()", ".pop()",
    "[0]", "(x)=>x", "get:", "set:", "else if", ".sort()", ".join(\",\")", ".string()", ".copy_deep()",
    "Mind.add(", "set(", "X r Y", "eval(\"", ".split(\"", ".search(\"", ".repeat(", "delete_nodes()",
    ".isomorphic(", ".attr(", ".add_nodes(", ".keys()", ".splice(", ".mix()", ".find(", "System.exit(",
    "Search.bfs(", "Heap()", ".push(", ".json()", ".str()", "fopen(\"f\")", "File.open(\"f\", \"w\")",
    "#include \"x.ds\"", "\xe9", "\u00a0", "\x00",
]

# Work that must stop at the limits: each is valid on its own.
STRESS = [
    "var __a = range(50000000)\n__a.sort()\n",
    "var __a = range(20000000)\nout __a\n",
    "var __a = range(10000000)\nvar __s = __a.join(\",\")\n",
    "var __a = range(20000000)\nvar __s = __a.string()\n",
    "var __a = []\nwhile True { __a.push(\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" + __a.size()) }\n",
    "var __s = \"ab\"\nwhile True { __s = __s + __s }\n",
    "def __r(n) : return __r(n + 1) + 1\nout __r(0)\n",
    "def __q(n) : return __q(n + 1)[0][0][0][0][0][0][0][0][0][0][0][0]\nout __q(0)\n",
    "def __u(n) : return - - - - - - - - - - - - - - - - - - - - __u(n + 1)\nout __u(0)\n",
    "var __G = GRAPH(\"S\")\nGRAPH = __G\n__G.add_nodes(20000)\nout exists(X, exists(Y, False))\n",
    "var __G = GRAPH(\"S\")\n__G.add_nodes(10000000)\nout __G.size()\n",
    "var __l = [1]\nfor __i in range(60) { __l = [__l, __l] }\nvar __c = __l.copy_deep()\n",
    "var __l = [1]\nvar __k = [1]\nfor __i in range(60) { __l = [__l, __l]\n __k = [__k, __k] }\nout __l == __k\n",
    "var __m = {}\n__m[__m] = 1\n__m[[__m]] = 2\nout __m.size()\n",
    "var __b = [1]\n__b[0] = __b\nout __b\n",
    "var __n = []\nfor __i in range(1000000) { __n = [__n] }\nout __n.size()\n",
    "out [1, 2, 3].splice(1, 1e300)\n",
    "edges __e\nvar __H = GRAPH(\"H\")\nGRAPH = __H\n__H.add_nodes(30)\nout Mind.get_models(__H, __e, 0).size()\n",
    "var __x = \"a\".repeat(60000000)\nvar __y = __x + __x\n",
    "while True { }\n",
    "for __j in range(100000000) { }\n",
    "var __z = 0\nwhile True { __z = eval(\"__z + 1\") }\n",
]

NUMBERS = ["0", "-1", "1e9", "1e300", "-1e300", "0.5", "50000000", "4294967296", "(0/0)", "1e19"]


SEED_FOLDERS = ["scripts", os.path.join("tests", "browser"), os.path.join("bench", "programs"),
                os.path.join("fuzz", "seeds")]


def seeds():
    """(path from the root, text) of every seed script, in a fixed order."""
    paths = []
    for folder in SEED_FOLDERS:
        for here, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d != "node_modules")
            paths.extend(os.path.join(here, n) for n in sorted(names) if n.endswith(".ds"))
    out = []
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            out.append((os.path.relpath(p, ROOT), f.read()))
    return out


def lay_out(scratch, seed):
    """Empties the scratch folder, then copies the folders beside `seed` into it: what the
    seed's `#include`s name (wolf/, eight/, krk/) and the data it reads."""
    for entry in os.listdir(scratch):
        path = os.path.join(scratch, entry)
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    folder = os.path.dirname(os.path.join(ROOT, seed))
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if os.path.isdir(path) and entry != "node_modules":
            shutil.copytree(path, os.path.join(scratch, entry))


# How often each kind of mutation is picked: the kinds that keep a script valid (a stress
# snippet, a number, two lines swapped, a line of another script) more often than those that
# mostly make a syntax error, so that most mutants run.
WEIGHTS = [10, 8, 7, 20, 10, 15, 25, 5]


def mutate(src, rng, others):
    """1-4 mutations of src."""
    for _ in range(rng.randint(1, 4)):
        n = len(src)
        at = rng.randint(0, n)
        kind = rng.choices(range(8), weights=WEIGHTS)[0]
        if kind == 0:
            src = src[:at] + rng.choice(FRAGMENTS) + src[at:]
        elif kind == 1 and n:
            end = min(n, at + rng.randint(1, 40))
            src = src[:at] + src[end:]
        elif kind == 2 and n:
            start = rng.randint(0, n - 1)
            piece = src[start:start + rng.randint(1, 60)]
            src = src[:at] + piece + src[at:]
        elif kind == 3:
            numbers = [m.span() for m in re.finditer(r"\b\d+(\.\d+)?\b", src)]
            if numbers:
                lo, hi = rng.choice(numbers)
                src = src[:lo] + rng.choice(NUMBERS) + src[hi:]
        elif kind == 4:
            lines = src.split("\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                src = "\n".join(lines)
        elif kind == 5:
            other = rng.choice(others).split("\n")
            line = rng.choice(other)
            src = src[:at] + "\n" + line + "\n" + src[at:]
        elif kind == 6:
            # A stress snippet at the start of a line.
            cut = src.rfind("\n", 0, at) + 1
            src = src[:cut] + rng.choice(STRESS) + src[cut:]
        else:
            src = src[:at] + rng.choice(FRAGMENTS) + rng.choice(FRAGMENTS) + src[at:]
    return src


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def head(path):
    with open(path, "rb") as f:
        return f.read(KEEP).decode("utf-8", "replace")


def run(ds, scratch, script, extra=()):
    """(status or None when killed, stdout head, stderr head, seconds)."""
    out_path, err_path = os.path.join(scratch, ".out"), os.path.join(scratch, ".err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        p = subprocess.Popen([ds, *LIMITS, *extra, script], cwd=scratch, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, preexec_fn=limit_memory)
        try:
            status = p.wait(timeout=WALL_CAP)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            status = None
        took = time.monotonic() - start
    return status, head(out_path), head(err_path), took


def verdict(ds, scratch, script, status, stdout, stderr):
    """None when the run kept the promises, else what went wrong."""
    if status is None:
        return "still running after %.0f s: past its limits" % WALL_CAP
    if status < 0:
        return "killed by signal %d" % -status
    if "panicked" in stderr or "RUST_BACKTRACE" in stderr:
        return "panic"
    if status == 2 and "cannot read included file" in stderr:
        return None
    if status not in (0, 1):
        return "exit status %d" % status
    if not stdout.startswith(MARKER):
        check, _, _, _ = run(ds, scratch, script, ["--check"])
        if check == 0:
            return "output lost: the marker printed first is missing"
    return None


def outcome(status, stderr):
    """A name for how a run that kept its promises ended, for the summary."""
    if status != 1:
        return "exit %s" % status
    if "reached (--" in stderr or "memory limit" in stderr or "recursion too deep" in stderr:
        return "stopped by a limit"
    if "unexpected" in stderr or "expected" in stderr or "unknown" in stderr:
        return "refused before running"
    return "runtime error"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--from", dest="start", type=int, default=0, help="first mutant number")
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release-dev", "ds"))
    ap.add_argument("--out", default=os.path.join(ROOT, "fuzz", "failures"))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    ds = os.path.abspath(args.ds)
    sources = seeds()
    texts = [t for _, t in sources]
    scratch = tempfile.mkdtemp(prefix="ds-mutate-")
    tally = {}
    failures = 0
    started = time.monotonic()
    try:
        for i in range(args.start, args.start + args.count):
            rng = random.Random(args.seed * 1_000_003 + i)
            name, text = sources[rng.randrange(len(sources))]
            mutant = 'out "%s"\n%s' % (MARKER, mutate(text, rng, texts))
            lay_out(scratch, name)
            script = os.path.join(scratch, "mutant.ds")
            with open(script, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(mutant)
            status, stdout, stderr, took = run(ds, scratch, script)
            problem = verdict(ds, scratch, script, status, stdout, stderr)
            key = "failed" if problem else outcome(status, stderr)
            tally[key] = tally.get(key, 0) + 1
            if problem:
                failures += 1
                os.makedirs(args.out, exist_ok=True)
                base = os.path.join(args.out, "seed%d-%d" % (args.seed, i))
                with open(base + ".ds", "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(mutant)
                with open(base + ".txt", "w", encoding="utf-8") as f:
                    f.write("from %s: %s (%.1f s)\n--- stdout\n%s\n--- stderr\n%s\n" % (name, problem, took, stdout, stderr))
                print("mutant %d (from %s): %s" % (i, name, problem), flush=True)
            elif not args.quiet and (i + 1) % 500 == 0:
                print("%d mutants, %d failed, %.0f s" % (i + 1 - args.start, failures, time.monotonic() - started),
                      flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary = ", ".join("%s: %d" % kv for kv in sorted(tally.items()))
    print("seed %d, mutants %d..%d: %s (%.0f s)" % (args.seed, args.start, args.start + args.count - 1, summary,
                                                   time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
