#!/usr/bin/env python3
"""How the exact store scales (issue 52, item 8): whole state spaces of growing size, stored by
`Search.bfs` to a goal no state meets, with the bytes per state the store reports
(`Search.stats()["bytes_per_state"]`), the CPU time per state and the peak RSS of the process.

Two families:
  tokens T P   bench/programs/tokens.ds: T tokens on a road of P places, P^T states;
  wolf NAME    a world of bench/wolf_worlds.py with the seed's demons (its reachable states
               as tests/oracle/wolf_oracle.py counts them, in wolf_worlds.WORLDS).
Each line checks the states stored against the known count, so a wrong space fails loudly.

Usage: scale.py [--ds PATH] [--up-to N] [--checkpoint]
    --up-to N      leave out the spaces of more than N states (default 1e7)
    --checkpoint   also stop each search at nine tenths of its states (`max_states`) with
                   {"checkpoint": FILE}, and resume it to the end: the checkpoint's size and
                   the CPU time of both runs
"""

import argparse
import os
import subprocess
import sys
import tempfile

import wolf_worlds  # noqa: E402 (beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOKENS = os.path.join(HERE, "programs", "tokens.ds")

# (tokens, places): 1.2e5, 8.2e5, 1.7e6, 5.8e6, 1e7, 4e7 states
TOKEN_SHAPES = [(6, 7), (7, 7), (8, 6), (8, 7), (7, 10), (9, 7)]
WOLF_NAMES = ["wolf_1e5", "wolf_5e5"]


def timed(cmd, cwd=None):
    """(stdout, CPU seconds, peak RSS MiB) of cmd, from wait4 on its own process."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    return text, code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def wolf_program(name):
    """The seed's demons over world NAME, with a search that stores its whole space."""
    f, a, p, links, states = wolf_worlds.WORLDS[name]
    w = wolf_worlds.world(f, a, p, links)
    demons = wolf_worlds.seed_demons()
    text = (wolf_worlds.world_section(w) + demons[:demons.index("def solver")]
            + "Search.bfs(Start, all_actions, (G) => False)\n"
            + "var S = Search.stats()\n"
            + 'out S["states"], Math.round(S["bytes_per_state"] * 10) / 10, S["expanded"]\n')
    return text, states


def spaces(up_to, folder):
    """(label, command line, known states) of each space to run."""
    for t, p in TOKEN_SHAPES:
        if p ** t <= up_to:
            yield "tokens %d on %d places" % (t, p), [TOKENS, str(t), str(p)], p ** t
    for name in WOLF_NAMES:
        text, states = wolf_program(name)
        if states <= up_to:
            path = os.path.join(folder, name + "_space.ds")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            yield name, [path], states


def run_one(ds, label, args, known):
    out, code, cpu, rss = timed([ds] + args)
    if code != 0:
        sys.exit("%s: ds exited %d" % (label, code))
    states, per_state, expanded = out.split()[:3]
    if int(states) != known or int(expanded) != known:
        sys.exit("%s: %s states, %s expanded; the space has %d" % (label, states, expanded, known))
    print("%-24s %11d %9s %9.2f %9.1f %10.1f" % (label, known, per_state, cpu, cpu / known * 1e6, rss))
    sys.stdout.flush()


def checkpoint_one(ds, label, args, known, folder):
    """Stops the search at nine tenths of its states (`max_states`), which writes a
    checkpoint, then resumes it to the end; the resumed run must store the whole space."""
    script = args[0]
    with open(script, encoding="utf-8") as f:
        text = f.read()
    ckpt = os.path.join(folder, "scale.ckpt")
    if os.path.exists(ckpt):
        os.remove(ckpt)
    runs = []
    for limit in ', "max_states": %d' % (known * 9 // 10), "":
        opts = '{"checkpoint": "%s", "every": 1e9, "resume": True%s}' % (ckpt, limit)
        path = os.path.join(folder, "ckpt_" + os.path.basename(script))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("(G) => False)", "(G) => False, %s)" % opts))
        out, _, cpu, _ = timed([ds, path] + args[1:])
        runs.append((out, cpu, os.path.getsize(ckpt) if os.path.exists(ckpt) else 0))
    (_, to_limit, size), (out, resumed, _) = runs
    if int(out.split()[0]) != known:
        sys.exit("%s: resumed, %s states; the space has %d" % (label, out.split()[0], known))
    print("%-24s checkpoint at 90%%: %.1f MB, %.1f bytes a state; run to it %.2f s, resumed to the end %.2f s"
          % (label, size / 1e6, size / (known * 0.9), to_limit, resumed))
    sys.stdout.flush()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    parser.add_argument("--up-to", type=float, default=1e7)
    parser.add_argument("--checkpoint", action="store_true")
    args = parser.parse_args(argv)
    print("%-24s %11s %9s %9s %9s %10s" % ("space", "states", "B/state", "CPU s", "us/state", "RSS MiB"))
    with tempfile.TemporaryDirectory() as folder:
        for label, cmd, known in spaces(args.up_to, folder):
            run_one(args.ds, label, cmd, known)
            if args.checkpoint:
                checkpoint_one(args.ds, label, cmd, known, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
