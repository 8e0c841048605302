#!/usr/bin/env python3
"""How often the closures hand nodes to the tree walker (issue 43), summed over scripts/*.ds
and the ds examples of docs/*.md: each runs with DS_FALLBACKS=1, which makes ds print its
table on standard error. Usage: bench/fallbacks.py [--ds PATH] [--markdown]"""

import argparse
import collections
import os
import pathlib
import re
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROW = re.compile(r"^(statement|expression)\s+(\S+)\s+(\d+) \((\d+)\)\s+(\d+) \((\d+)\)$")


def doc_examples():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        block, info = None, None
        for line in doc.read_text().splitlines():
            if line.startswith("```"):
                if block is None:
                    block, info = [], line[3:].strip()
                else:
                    if info in ("ds", "ds-warning", "ds-error"):
                        yield "\n".join(block) + "\n"
                    block = None
            elif block is not None:
                block.append(line)


def run(ds, path, cwd, totals):
    env = dict(os.environ, DS_FALLBACKS="1")
    try:
        r = subprocess.run([ds, "--timeout", "60", str(path)], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=120, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return
    for line in r.stderr.splitlines():
        m = ROW.match(line)
        if m:
            t = totals[(m[1], m[2])]
            for i, k in enumerate((3, 4, 5, 6)):
                t[i] += int(m[k])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ds", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"), "release-dev/ds"))
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    totals = collections.defaultdict(lambda: [0, 0, 0, 0])
    for script in sorted((ROOT / "scripts").glob("*.ds")):
        run(a.ds, script, ROOT / "scripts", totals)
    with tempfile.TemporaryDirectory() as tmp:
        for i, code in enumerate(doc_examples()):
            p = pathlib.Path(tmp) / f"doc{i}.ds"
            p.write_text(code)
            run(a.ds, p, tmp, totals)
    rows = sorted(totals.items(), key=lambda kv: -(kv[1][0] + kv[1][2]))
    if a.markdown:
        print("| kind | fallback runs | nodes | gave-up runs | nodes |")
        print("|---|---:|---:|---:|---:|")
    for (what, kind), (runs, nodes, gave, gnodes) in rows:
        if a.markdown:
            print(f"| {what} `{kind}` | {runs} | {nodes} | {gave} | {gnodes} |")
        else:
            print(f"{what:10} {kind:14} {runs:>12} ({nodes}) {gave:>12} ({gnodes})")
    n = sum(v[1] + v[3] for v in totals.values())
    r = sum(v[0] + v[2] for v in totals.values())
    print(f"\ntotal: {r} runs, {n} nodes")


main()
