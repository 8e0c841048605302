#!/usr/bin/env python3
"""Benchmarks of the Search module (issue 18's goals), on the release build, ratios in one run.

1. Search.bfs against the seed's `solver`, both over the seed's demons, on the wolf worlds of
   bench/wolf_worlds.py (about 1e4 and 1e5 reachable states): the least CPU time of each over
   --reps alternating runs, their ratio, and the peak RSS of each. Both must print the same plan.
2. Search.astar with Manhattan distance on the 31-move 8-puzzle, and the whole 8-puzzle space
   (181,440 states) by Search.explore (bench/programs/search_eight.ds), by Search.explore and
   Search.bfs with the moves of the BFS written in ds (puzzle8_search.ds), by that BFS
   (puzzle8.ds) and by Stateright's BFS checker (bench/stateright, a Rust twin built here on
   demand with cargo): CPU time, peak RSS and the ratio to Stateright.
3. Bytes per stored state of 20-fact states (bench/programs/search_bytes.ds): the store's own
   count (Search.stats()["bytes"] / states), and the peak RSS difference between 100,000 and
   200,000 states divided by 100,000; when the states differ from the start in a few facts, and
   when they differ in all 20.

Usage:
    python3 bench/search.py [--reps N] [--ds PATH] [--markdown]

`cargo build --release` first; the default interpreter is target/release/ds.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as bench_run  # noqa: E402  (run_once: CPU time from wait4, peak RSS from GNU time)
import wolf_worlds  # noqa: E402


def best(cmd, reps):
    runs = [bench_run.run_once(cmd) for _ in range(reps)]
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[-1][2]


def wolf(ds, reps, markdown):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        names = ["wolf_1e4", "wolf_1e5"]
        wolf_worlds.main(["--write", tmp] + names)
        for name in names:
            f, a, p, links, states = wolf_worlds.WORLDS[name]
            seed_cmd = [ds, os.path.join(tmp, name + ".ds")]
            search_cmd = [ds, os.path.join(tmp, name + "_search.ds")]
            seed_runs, search_runs = [], []
            for _ in range(reps):                       # alternating, in the same run
                seed_runs.append(bench_run.run_once(seed_cmd))
                search_runs.append(bench_run.run_once(search_cmd))
            seed_cpu, search_cpu = min(r[0] for r in seed_runs), min(r[0] for r in search_runs)
            seed_rss, search_rss = max(r[1] for r in seed_runs), max(r[1] for r in search_runs)
            same = seed_runs[-1][2].splitlines()[-1] == search_runs[-1][2].splitlines()[-1]
            rows.append((name, wolf_worlds.world(f, a, p, links)["note"], states, seed_cpu, search_cpu,
                         seed_cpu / search_cpu, seed_rss / 1024, search_rss / 1024, search_rss / seed_rss, same))
    if markdown:
        print("| world | shape | states | solver CPU s | Search.bfs CPU s | speed-up | solver MiB | Search.bfs MiB | memory ratio |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print("| %s | %s | %d | %.3f | %.3f | **%.2f** | %.1f | %.1f | **%.2f** |%s"
                  % (r[:9] + ("" if r[9] else " **plans differ**",)))
    else:
        for r in rows:
            print("%-9s %7d states: solver %.3f s, Search.bfs %.3f s (x%.2f); %.1f MiB vs %.1f MiB (%.2f)%s"
                  % ((r[0],) + r[2:9] + ("" if r[9] else "  PLANS DIFFER",)))


STATERIGHT = os.path.join(HERE, "stateright")


def stateright_twin():
    """Builds the Stateright twin (bench/stateright, its own workspace and target folder) and
    returns the path of its binary."""
    target = os.path.join(STATERIGHT, "target")
    cmd = ["cargo", "build", "--release", "--quiet", "--manifest-path", os.path.join(STATERIGHT, "Cargo.toml"),
           "--target-dir", target]
    subprocess.run(cmd, check=True)
    return os.path.join(target, "release", "eight-stateright")


def eight(ds, reps, markdown):
    """The 8-puzzle: Search.astar, then the whole space by Search.explore (search_eight.ds, the
    moves by row and column with `substr`), by Search.explore and Search.bfs with the moves and
    swap of the hand-written BFS (puzzle8_search.ds; bfs towards a board of the other parity,
    never reached), by that BFS written in ds (puzzle8.ds) and by Stateright's BFS checker,
    alternating in one run; the ratio of each whole-space run to Stateright's."""
    script = os.path.join(HERE, "programs", "search_eight.ds")
    same = os.path.join(HERE, "programs", "puzzle8_search.ds")
    runs = [("Search.astar", [ds, script, "astar"]), ("Search.explore", [ds, script, "explore"]),
            ("Search.explore, puzzle8's moves", [ds, same, "explore"]),
            ("Search.bfs, puzzle8's moves", [ds, same, "bfs"]),
            ("BFS written in ds", [ds, os.path.join(HERE, "programs", "puzzle8.ds")]),
            ("Stateright BFS", [stateright_twin()])]
    times = {name: [] for name, _ in runs}
    for _ in range(reps):
        for name, cmd in runs:
            times[name].append(bench_run.run_once(cmd))
    twin = min(r[0] for r in times["Stateright BFS"])
    rows = []
    for name, _ in runs:
        cpu, rss = min(r[0] for r in times[name]), max(r[1] for r in times[name])
        ratio = "" if name == "Search.astar" else "%.2f" % (cpu / twin)
        rows.append((name, cpu, rss / 1024, ratio, times[name][-1][2].strip()))
    if markdown:
        print("| 8-puzzle | CPU s | peak RSS MiB | / Stateright | output |")
        print("|---|---:|---:|---:|---|")
        for r in rows:
            print("| %s | %.3f | %.1f | %s | %s |" % r)
    else:
        for r in rows:
            print("%-32s %.3f s, %.1f MiB, x%s: %s" % r)


def bytes_per_state(ds, markdown):
    script = os.path.join(HERE, "programs", "search_bytes.ds")
    rows = []
    for mode, title in (([], "a few facts differ from the start"), (["all"], "all 20 facts differ")):
        counted, peaks = None, []
        for n in (100000, 200000):
            _, peak, out = bench_run.run_once([ds, script, str(n)] + mode)
            peaks.append(peak)
            counted = int(out.split()[1])
        rows.append((title, counted, (peaks[1] - peaks[0]) * 1024 // 100000, peaks[0] / 1024, peaks[1] / 1024))
    if markdown:
        print("| 20-fact states | store bytes per state | RSS bytes per state | RSS at 100,000 | at 200,000 |")
        print("|---|---:|---:|---:|---:|")
        for r in rows:
            print("| %s | %d | %d | %.1f MiB | %.1f MiB |" % r)
    else:
        for r in rows:
            print("%s: %d bytes per state in the store, %d by RSS (%.1f / %.1f MiB)" % r)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    print("load average %.2f %.2f %.2f, %s\n" % (os.getloadavg() + (args.ds,)))
    wolf(args.ds, args.reps, args.markdown)
    print()
    eight(args.ds, args.reps, args.markdown)
    print()
    bytes_per_state(args.ds, args.markdown)


if __name__ == "__main__":
    main()
