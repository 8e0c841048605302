#!/usr/bin/env python3
"""Search.explore on several threads (issue 17): the speed-up of --threads N over one thread.

Writes a wolf world of bench/wolf_worlds.py with one `Search.explore` of its whole state space,
runs it with --threads 1 and --threads N alternately, --reps times each, and reports for each
the least wall-clock time, the CPU time (user + system, from wait4) of that run, the ratio of
the wall-clock times, and whether both printed the same (they must). The wall clock is what
threads shorten; it is only fair on a machine nobody else is using, so the load average is
printed before and after, and the CPU time of each thread is sampled from /proc: the CPU time
of one thread over that of the busiest of N estimates the speed-up with a core per thread.

With --processes N it compares one thread with N processes on this machine instead (ds
--processes N, ports free on 127.0.0.1): the wall clock until every process ended, the CPU
time of all and of the busiest process.

Usage:
    threads.py [--world wolf_5e5] [--threads 2 | --processes 2] [--reps 3] [--ds target/release/ds]
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import wolf_worlds  # noqa: E402


def explore_program(name):
    f, a, p, links, _ = wolf_worlds.WORLDS[name]
    w = wolf_worlds.world(f, a, p, links)
    demons = wolf_worlds.seed_demons()
    return (wolf_worlds.world_section(w) + demons[:demons.index("def solver")]
            + 'var Space = Search.explore(Start, all_actions, {"goal": target_state})\n'
            + 'var S = Search.stats()\n'
            + 'out Space, Space.goals().size(), S["expanded"], S["generated"], S["duplicates"], S["depth"]\n')


TICK = os.sysconf("SC_CLK_TCK")


def thread_times(pid, seen):
    """CPU seconds of each thread of `pid` so far (from /proc), into `seen` by thread id."""
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seen[tid] = max(seen.get(tid, 0.0), (int(fields[11]) + int(fields[12])) / TICK)


def run(ds, threads, path):
    """Wall clock, CPU time, output, and the CPU time of the busiest thread (sampled every
    20 ms from /proc: a thread's last 20 ms may be missed)."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([ds, "--threads", str(threads), path], stdout=out)
        seen = {}
        while proc.poll() is None:
            thread_times(proc.pid, seen)
            time.sleep(0.02)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            sys.exit("ds --threads %d %s failed" % (threads, path))
        out.seek(0)
        text = out.read()
    cpu = sum(seen.values())
    return wall, cpu, text, max(seen.values(), default=0.0)


def free_ports(n):
    """n ports free on 127.0.0.1 now."""
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def run_processes(ds, n, path):
    """Like `run`, on n processes: wall clock until all ended, CPU of all (from wait4), the
    output of process 0, and the CPU of the busiest process."""
    hosts = path + ".hosts"
    with open(hosts, "w", encoding="utf-8") as f:
        f.write("".join("127.0.0.1:%d\n" % p for p in free_ports(n)))
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        procs = [subprocess.Popen([ds, "--processes", str(n), "--process", str(i), "--hostfile", hosts, path],
                                  stdout=out if i == 0 else subprocess.DEVNULL) for i in range(n)]
        cpus = []
        for proc in procs:
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                sys.exit("ds --processes %d %s failed" % (n, path))
            cpus.append(usage.ru_utime + usage.ru_stime)
        wall = time.monotonic() - start
        out.seek(0)
        text = out.read()
    return wall, sum(cpus), text, max(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", default="wolf_5e5", choices=sorted(wolf_worlds.WORLDS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--processes", type=int, default=0, help="compare with N processes, not threads")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ds", default=os.path.join(ROOT, "target", "release", "ds"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, args.world + "_explore.ds")
        with open(path, "w", encoding="utf-8") as f:
            f.write(explore_program(args.world))
        print("load average before: %.2f %.2f %.2f" % os.getloadavg())
        best = {}
        outputs = {}
        many = args.processes or args.threads
        word = "--processes" if args.processes else "--threads"
        for _ in range(args.reps):
            for n in (1, many):
                if n > 1 and args.processes:
                    wall, cpu, out, busiest = run_processes(args.ds, n, path)
                else:
                    wall, cpu, out, busiest = run(args.ds, n, path)
                outputs.setdefault(n, out)
                if n not in best or wall < best[n][0]:
                    best[n] = (wall, cpu, busiest)
        print("load average after:  %.2f %.2f %.2f" % os.getloadavg())
        print(outputs[1].decode().strip())
        for n in (1, many):
            print("%s %d: %.2f s wall, %.2f s CPU, busiest %.2f s"
                  % ((word if n > 1 else "--threads", n) + best[n]))
        same = outputs[1] == outputs[many]
        print("speed-up (wall): %.2fx; same output: %s" % (best[1][0] / best[many][0], same))
        # With a core for each thread, the run would take about as long as its busiest thread:
        # an estimate that holds on a loaded machine, where the wall clock does not.
        print("speed-up with a core each (CPU of one thread / busiest of %d): %.2fx"
              % (many, best[1][1] / best[many][2]))
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
