#!/usr/bin/env python3
"""Many-positions run of scripts/krk.ds (the slower test / benchmark of issue 7).

Draws N legal positions with White to move from a seeded generator, plays each with
`ds scripts/krk.ds WK WR BK` against the stubborn defender and with `--defender random --seed I`,
checks every printed game with krk_check.py (legal moves, mate, no stalemate, the rook never
taken, at most 50 moves) and, with --oracle, compares the whole output with krk_oracle.py.
Prints the mean and maximum number of White moves to mate and the time per game.

Usage: krk_bench.py [--n 300] [--seed 2026] [--jobs 2] [--ds target/release/ds] [--oracle]
Exit status 0 when every game passes.
"""

import argparse
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import krk_check  # noqa: E402

FILES = "abcdefgh"


def name(s): return FILES[s % 8] + str(s // 8 + 1)


def legal(wk, wr, bk):
    """Three squares, kings not touching, Black not in check (written apart from the checker)."""
    kx, ky, rx, ry, bx, by = wk % 8, wk // 8, wr % 8, wr // 8, bk % 8, bk // 8
    if len({wk, wr, bk}) < 3 or max(abs(kx - bx), abs(ky - by)) <= 1:
        return False
    if rx == bx:
        return kx == rx and min(ry, by) < ky < max(ry, by)
    if ry == by:
        return ky == ry and min(rx, bx) < kx < max(rx, bx)
    return True


def positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        wk, wr, bk = rng.sample(range(64), 3)
        if legal(wk, wr, bk):
            out.append((name(wk), name(wr), name(bk)))
    return out


def run(ds, args, use_oracle):
    t = time.perf_counter()
    p = subprocess.run([ds, os.path.join(ROOT, "scripts", "krk.ds")] + args,
                       capture_output=True, text=True, cwd=ROOT)
    secs = time.perf_counter() - t
    ok, msg, n = krk_check.check(p.stdout, args)
    if p.returncode != 0:
        ok, msg = False, "exit status %d: %s" % (p.returncode, p.stderr.strip()[:200])
    if ok and use_oracle:
        import krk_oracle
        if krk_oracle.expected_output(args) != p.stdout:
            ok, msg = False, "differs from krk_oracle.py"
    return args, ok, msg, n, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    ap.add_argument("--oracle", action="store_true")
    a = ap.parse_args()
    games = []
    for i, pos in enumerate(positions(a.n, a.seed)):
        games.append(list(pos))
        games.append(list(pos) + ["--defender", "random", "--seed", str(i + 1)])
    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda g: run(a.ds, g, a.oracle), games))
    failed = [r for r in results if not r[1]]
    for args, ok, msg, n, secs in failed:
        print("FAIL", " ".join(args), "-", msg)
    print("positions: %d (seed %d), games: %d, failed: %d" % (a.n, a.seed, len(results), len(failed)))
    for d in ("stubborn", "random"):
        rs = [r for r in results if r[1] and (("random" in r[0]) == (d == "random"))]
        if rs:
            moves = [r[3] for r in rs]
            secs = [r[4] for r in rs]
            worst = max(rs, key=lambda r: r[3])
            print("%-8s moves to mate: mean %.2f, max %d (%s); time per game: mean %.3f s, max %.3f s"
                  % (d, sum(moves) / len(moves), max(moves), " ".join(worst[0][:3]),
                     sum(secs) / len(secs), max(secs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
