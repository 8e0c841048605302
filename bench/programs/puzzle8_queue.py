# The twin of puzzle8_queue.ds: the 8-puzzle's full breadth-first search with a deque used as
# the seed uses its array (appendleft at the front, pop from the back).
from collections import deque

MOVES = [[1, 3], [0, 2, 4], [1, 5], [0, 4, 6], [1, 3, 5, 7], [2, 4, 8], [3, 7], [4, 6, 8], [5, 7]]


def swap(s, i, j):
    if i > j:
        return swap(s, j, i)
    return s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]


def bfs(start):
    depth = {start: 0}
    open_ = deque([start])
    far = 0
    most = 1
    while open_:
        s = open_.pop()
        d = depth[s] + 1
        b = s.find("0")
        for j in MOVES[b]:
            t = swap(s, b, j)
            if t not in depth:
                depth[t] = d
                open_.appendleft(t)
                if d > far:
                    far = d
        if len(open_) > most:
            most = len(open_)
    print("states:", len(depth), "depth:", far, "largest queue:", most)


bfs("123456780")
