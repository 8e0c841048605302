#!/usr/bin/env python3
"""Where Search.bfs's time goes: `perf script` output on stdin (a `perf record -e cpu-clock
--call-graph dwarf` of a search), each sample given to the innermost of the search's
functions on its stack (`Next`, the goal, encoding, decoding, the store's commit, the
expansion's own work), and within the expansion, the commit and decoding to the leaf-side
function that refines it. Prints each part's samples and share.

Usage (docs/performance.md, "Search.bfs's own part"):
    python3 bench/wolf_worlds.py --write W wolf_1e5
    perf record -e cpu-clock -F 15000 --call-graph dwarf,16384 -o perf.data DS W/wolf_1e5_search.ds
    perf script -i perf.data | python3 bench/search_split.py
"""

import argparse
import collections
import sys

# (part, a substring of the frame's symbol), innermost first
PARTS = [
    ("Next", "sink::<impl ds::eval::Interp>::call_sinking"),
    ("goal", "Problem>::is_goal"),
    ("encode (pack)", "search::states::Decoder::pack"),
    ("decode (load)", "Problem>::load"),
    ("commit", "GoalCommit::commit"),
    ("expand_in", "ScriptProblem::expand_in"),
    ("bfs", "search::bfs::bfs"),
]
REFINED = {
    "expand_in": [("drop", "drop_in_place"), ("recent find", "HashTable<T,A>::find"), ("push_stored", "push_stored")],
    "commit": [("find_hashed", "find_hashed"), ("insert", "insert_absent"), ("recent keep", "Recent::keep")],
    "decode (load)": [("name", "name_by_last"), ("unpack", "unpack_at"), ("graph_with", "graph_with")],
}


def part_of(stack):
    """The part of a sample, its stack listed from the leaf."""
    for i, frame in enumerate(stack):
        for name, symbol in PARTS:
            if symbol in frame:
                for sub, sub_symbol in REFINED.get(name, []):
                    if any(sub_symbol in f for f in stack[:i]):
                        return name + " / " + sub
                return name
    return "outside"


def main(argv):
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            epilog=__doc__.split("\n\n", 1)[1]).parse_args(argv)
    if sys.stdin.isatty():
        sys.exit("search_split.py: give `perf script` output on stdin (--help)")
    counts, stack = collections.Counter(), []
    for line in sys.stdin:
        if not line.strip():
            if stack:
                counts[part_of(stack)] += 1
            stack = []
        elif line[0] in " \t":
            stack.append(line.strip())
    if stack:
        counts[part_of(stack)] += 1
    if not counts:
        sys.exit("search_split.py: no samples on stdin (`perf script` output expected)")
    total = sum(counts.values())
    for name, n in sorted(counts.items()):
        print("%-28s %6d %6.2f%%" % (name, n, 100.0 * n / total))
    print("samples", total)


if __name__ == "__main__":
    main(sys.argv[1:])
