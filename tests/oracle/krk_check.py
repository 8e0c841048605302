#!/usr/bin/env python3
"""Independent checker of a game printed by scripts/krk.ds (king and rook against king).

It knows nothing of the advice table or of the script: it takes the start position from the
arguments the script was given, replays every printed move on its own board with its own rules
of chess, and checks that
  * every White move is legal (king steps, rook slides without jumping, never into check),
    and its +/# mark says whether it gives check or mate;
  * every Black move is a legal king step (never into check) and never takes the rook;
  * White never stalemates Black;
  * the game ends in mate, within 50 White moves, and `answer: N` is the number of White moves;
  * the printed start board and final board are the positions of the replay.
Exit status 0 and "ok: mate in N" when all holds; 1 with the first error otherwise.

Usage:
    krk_check.py OUTPUT_FILE [WK WR BK] [--defender D] [--seed N]    (OUTPUT_FILE may be -)
    krk_check.py --all        check tests/expected/krk.out and every krk@CASE.out with its .args
As a module: check(text, args) -> (ok, message, white_moves).
"""

import os
import re
import sys

MAX_MOVES = 50


def sq(t):
    """'e4' -> (4, 3) (file, rank from 0), or None."""
    if len(t) == 2 and "a" <= t[0] <= "h" and "1" <= t[1] <= "8":
        return (ord(t[0]) - ord("a"), int(t[1]) - 1)
    return None


def king_step(a, b):
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def path_clear(a, b, blockers):
    """a and b on one rank or file, no blocker strictly between them."""
    if a[0] != b[0] and a[1] != b[1]:
        return False
    dx = (b[0] > a[0]) - (b[0] < a[0])
    dy = (b[1] > a[1]) - (b[1] < a[1])
    x, y = a[0] + dx, a[1] + dy
    while (x, y) != b:
        if (x, y) in blockers:
            return False
        x, y = x + dx, y + dy
    return True


class Board:
    def __init__(self, wk, wr, bk):
        self.wk, self.wr, self.bk = wk, wr, bk

    def white_attacks(self, s, ignore_bk=True):
        """Does White attack square s? The black king does not shield squares (it is the piece
        that would stand there), the white king does."""
        if king_step(self.wk, s):
            return True
        if self.wr is None or s == self.wr:
            return False
        return path_clear(self.wr, s, {self.wk})

    def black_in_check(self):
        return self.white_attacks(self.bk)

    def black_replies(self):
        res = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                t = (self.bk[0] + dx, self.bk[1] + dy)
                if (dx, dy) == (0, 0) or not (0 <= t[0] < 8 and 0 <= t[1] < 8):
                    continue
                if not self.white_attacks(t):
                    res.append(t)
        return res

    def rows(self):
        out = []
        for r in range(7, -1, -1):
            row = str(r + 1)
            for f in range(8):
                s = (f, r)
                row += " " + ("K" if s == self.wk else "R" if s == self.wr else "k" if s == self.bk else ".")
            out.append(row)
        out.append("  a b c d e f g h")
        return out


MOVE = re.compile(r"^([KR])([a-h][1-8])([-x])([a-h][1-8])([+#]?)$")
LINE = re.compile(r"^\s*(\d+)\.\s+(\S+)(?:\s+(K[a-h][1-8][-x][a-h][1-8][+#]?))?\s+(\S.*)$")


def parse_args(args):
    given, defender, seed, i = [], "stubborn", "1", 0
    while i < len(args):
        if args[i] == "--defender" and i + 1 < len(args):
            defender = args[i + 1]; i += 1
        elif args[i] == "--seed" and i + 1 < len(args):
            seed = args[i + 1]; i += 1
        else:
            given.append(args[i])
        i += 1
    return (given or ["e1", "a1", "e8"]), defender, seed


def check(text, args):
    given, defender, seed = parse_args(args)
    squares = [sq(g) for g in given]
    if len(squares) != 3 or None in squares:
        return False, "bad arguments %r" % (args,), 0
    b = Board(*squares)
    if len(set(squares)) != 3 or king_step(b.wk, b.bk) or b.black_in_check():
        return False, "the start position is not legal with White to move", 0
    lines = text.rstrip("\n").split("\n")
    start_board = b.rows()
    try:
        at = lines.index(start_board[0])
    except ValueError:
        return False, "no start board", 0
    if lines[at:at + 9] != start_board:
        return False, "the start board does not show the start position", 0
    i, n, mated = at + 9, 0, False
    while i < len(lines) and LINE.match(lines[i]):
        num, white, black, why = LINE.match(lines[i]).groups()
        n += 1
        if int(num) != n:
            return False, "line %d: move number %s, expected %d" % (i + 1, num, n), n
        if not why.strip():
            return False, "line %d: no advice named" % (i + 1), n
        m = MOVE.match(white)
        if not m:
            return False, "line %d: cannot read White's move %r" % (i + 1, white), n
        piece, frm, sep, to, mark = m.groups()
        frm, to = sq(frm), sq(to)
        if sep != "-":
            return False, "line %d: White never captures" % (i + 1), n
        if piece == "K":
            if frm != b.wk or not king_step(frm, to) or to == b.wr or king_step(to, b.bk):
                return False, "line %d: illegal king move %s" % (i + 1, white), n
            b.wk = to
        else:
            if b.wr is None or frm != b.wr or to in (b.wk, b.bk, b.wr) or not path_clear(frm, to, {b.wk, b.bk}):
                return False, "line %d: illegal rook move %s" % (i + 1, white), n
            b.wr = to
        check_ = b.black_in_check()
        replies = b.black_replies()
        if not replies and not check_:
            return False, "line %d: stalemate" % (i + 1), n
        want = "#" if (check_ and not replies) else "+" if check_ else ""
        if mark != want:
            return False, "line %d: %s is marked %r, it should be %r" % (i + 1, white, mark, want), n
        if want == "#":
            if black is not None:
                return False, "line %d: Black moves after mate" % (i + 1), n
            mated = True
            i += 1
            break
        if black is None:
            return False, "line %d: Black's reply is missing" % (i + 1), n
        m = MOVE.match(black)
        _, bfrm, bsep, bto, bmark = m.groups()
        bfrm, bto = sq(bfrm), sq(bto)
        if bfrm != b.bk or bto not in replies:
            return False, "line %d: illegal black move %s" % (i + 1, black), n
        if bto == b.wr or bsep == "x":
            return False, "line %d: the black king takes the rook" % (i + 1), n
        if bmark:
            return False, "line %d: a lone king cannot give check" % (i + 1), n
        b.bk = bto
        i += 1
    if not mated:
        return False, "the game does not end in mate (stopped at line %d)" % (i + 1), n
    if n > MAX_MOVES:
        return False, "mate after %d moves, more than %d" % (n, MAX_MOVES), n
    if lines[i:i + 9] != b.rows():
        return False, "the final board is not the final position", n
    if lines[i + 9:] != ["answer: %d" % n]:
        return False, "the last line should be 'answer: %d'" % n, n
    return True, "ok: mate in %d" % n, n


def main(argv):
    if argv[:1] == ["--all"]:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "expected")
        cases = [("krk", [])]
        for f in sorted(os.listdir(here)):
            if f.startswith("krk@") and f.endswith(".args"):
                cases.append((f[:-5], open(os.path.join(here, f)).read().split()))
        bad = 0
        for case, args in cases:
            ok, msg, _ = check(open(os.path.join(here, case + ".out")).read(), args)
            print("%-24s %s" % (case, msg))
            bad += not ok
        return 1 if bad else 0
    if not argv:
        print(__doc__)
        return 2
    text = sys.stdin.read() if argv[0] == "-" else open(argv[0]).read()
    ok, msg, _ = check(text, argv[1:])
    print(msg)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
