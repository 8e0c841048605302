#!/usr/bin/env python3
"""The wolf family: the seed's program (scripts/wolf.ds from `def place` on, unchanged) over
generated worlds of growing size (bench/wolf_worlds.py), against a hand-written Python solver
(bench/programs/wolf_facts.py, run as `python3 -S`) and a native one (bench/native/wolf.rs,
built with `rustc -O`). All three print the same `Close:` line and plan; the table gives CPU
time (user + system) and peak memory of each, and the ratios of one run.

Usage: wolf_family.py [--ds PATH] [--held-out] [NAME ...]
    NAME: a world of wolf_worlds.py (default: all of them); --held-out adds two other
    shapes of the family (every pair of places linked; a longer road) to check the scaling.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import wolf_worlds  # noqa: E402 (beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name: (farmers, animals, places, links): the worlds of bench/wolf_worlds.py
SHAPES = {name: shape[:4] for name, shape in wolf_worlds.WORLDS.items()}
HELD_OUT = {
    "wolf_all_8e4": (3, 4, 4, "all"),
    "wolf_long_3e5": (3, 4, 5, "road"),
}


def timed(cmd, out_path):
    """(stdout, CPU seconds, peak RSS MiB) of cmd, from wait4 on its own process."""
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("%s failed (exit %d)" % (" ".join(cmd), proc.returncode))
    with open(out_path, encoding="utf-8") as f:
        text = f.read()
    return text, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main(argv):
    shapes = {**SHAPES, **HELD_OUT}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"),
                        help="the ds binary (default: target/release/ds)")
    parser.add_argument("--held-out", action="store_true",
                        help="add two other shapes of the family: %s" % ", ".join(HELD_OUT))
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="worlds of wolf_worlds.py (default: all of them): %s" % ", ".join(SHAPES))
    opts = parser.parse_args(argv)
    unknown = [n for n in opts.names if n not in shapes]
    if unknown:
        parser.error("no world named %s (worlds: %s)" % (", ".join(unknown), ", ".join(shapes)))
    ds = opts.ds
    names = (opts.names or list(SHAPES)) + (list(HELD_OUT) if opts.held_out else [])
    tmp = tempfile.mkdtemp(prefix="wolf_family_")
    native = os.path.join(tmp, "wolf")
    subprocess.check_call(["rustc", "-O", "-o", native, os.path.join(HERE, "native", "wolf.rs")])
    print("| world | states | ds | Python | native | ds/Python | ds µs/state | peak RSS ds / Python |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        f, a, p, links = shapes[name]
        w = wolf_worlds.world(f, a, p, links)
        ds_file = os.path.join(tmp, name + ".ds")
        json_file = os.path.join(tmp, name + ".json")
        with open(ds_file, "w", encoding="utf-8") as fh:
            fh.write(wolf_worlds.seed_program(w))
        with open(json_file, "w", encoding="utf-8") as fh:
            json.dump(w, fh)
        out = os.path.join(tmp, name + ".out")
        d_out, d_cpu, d_rss = timed([ds, ds_file], out)
        p_out, p_cpu, p_rss = timed(["python3", "-S", os.path.join(HERE, "programs", "wolf_facts.py"), json_file], out)
        n_out, n_cpu, _ = timed([native, str(f), str(a), str(p), links], out)
        if not (d_out == p_out == n_out):
            sys.exit("%s: the solvers disagree:\n%s\n%s\n%s" % (name, d_out[:200], p_out[:200], n_out[:200]))
        states = int(d_out.split()[1])
        print("| %s (%s) | %s | %.2f s | %.2f s | %.3f s | %.2f | %.1f | %.0f / %.0f MiB |" % (
            name, w["note"], format(states, ","), d_cpu, p_cpu, n_cpu, d_cpu / p_cpu,
            d_cpu / states * 1e6, d_rss, p_rss))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
