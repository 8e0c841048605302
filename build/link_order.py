#!/usr/bin/env python3
"""Writes build/start.ld: the functions a start-up and a few small runs execute, placed first in
the text by the linker (build.rs passes the script to rust-lld with -T; INSERT keeps the rest
of the default layout).

Why: most of what `ds -e 'out 1'` keeps in memory is not heap (about 0.1 MB) but the binary's
code. The kernel maps file pages in blocks of 64 KB or more around each page touched, and the
few hundred functions a start-up runs were spread over most of the 6 MB of text, so nearly all
of it was mapped. Placed together they fill a few blocks (docs/performance.md, "Start-up
memory").

Each function is listed twice: by its exact name (but for the suffix below), which places
exactly the code that ran (in this profile, until the code changes), then as a pattern without the parts that change between
profiles and builds (the hash of a legacy name, the '.llvm.' suffix of a local made global),
which also takes in every instance of a generic function. A function renamed or added since the
script was made is placed anywhere: only the layout, never the behaviour, gets worse. Run
again after a dependency or toolchain update, or when start-up RSS creeps up:

    cargo build --profile release-dev && python3 build/link_order.py
    cargo build --profile release-dev    # links with the new script
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Small runs, start-up first: its functions come first in the file.
RUNS = [
    ["-e", "out 1"],
    ["scripts/wolf.ds"],
    ["scripts/wolf_search.ds"],
    ["scripts/eight.ds"],
]


def executed(ds, args, out):
    """The mangled names of the functions one run executes, in callgrind's order (those of the
    C library and the loader too: main() keeps the binary's)."""
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--compress-strings=no",
                    "--callgrind-out-file=" + out, ds] + args,
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [line[3:].strip() for line in open(out, encoding="utf-8", errors="replace") if line.startswith("fn=")]


def defined(ds):
    """The names of the binary's own functions (callgrind does not always know the object)."""
    out = subprocess.run(["nm", "--defined-only", ds], check=True, capture_output=True, text=True).stdout
    return {p[2] for p in (line.split() for line in out.splitlines()) if len(p) == 3 and p[1] in "tTwW"}


def pattern(name):
    """A name without what changes between profiles and builds: the hash of a legacy name
    ("17h" and 16 digits), the suffix of a local made global ('.llvm.' and digits)."""
    name = re.sub(r"\.llvm\.\d+$", "", name)
    return re.sub(r"17h[0-9a-f]{16}E$", "17h", name) + "*"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default="release-dev", help="the build whose binary runs")
    a = ap.parse_args()
    ds = os.path.join(ROOT, "target", a.profile, "ds")
    own, names = defined(ds), {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, args in enumerate(RUNS):
            names.update((n, None) for n in executed(ds, args, os.path.join(tmp, "cg%d" % i)) if n in own)
    names = list(names)
    # The exact names first (they hold for this profile until the code changes), then the
    # patterns, which hold for every profile but take in every instance of a generic function.
    # A local made global gets a new '.llvm.' suffix whenever its unit is compiled again.
    exact = list(dict.fromkeys(re.sub(r"\.llvm\.\d+$", ".llvm.*", n) for n in names))
    lines = exact + list(dict.fromkeys(map(pattern, names)))
    path = os.path.join(ROOT, "build", "start.ld")
    with open(path, "w") as f:
        f.write("/* Made by build/link_order.py: the code small runs execute, first. */\n")
        f.write("SECTIONS {\n  .text.start : {\n")
        # Cold functions (#[cold]: allocation growth, rehashing) are in .text.unlikely.NAME.
        f.writelines("    *(.text.%s .text.unlikely.%s)\n" % (p, p) for p in lines)
        f.write("  }\n} INSERT BEFORE .text;\n")
    print("%s: %d functions" % (os.path.relpath(path, ROOT), len(names)), file=sys.stderr)


if __name__ == "__main__":
    main()
