# The 8-puzzle's full breadth-first search (the twin of puzzle8.ds): every state reachable from
# the goal (181,440), a state as a 9-character string, the visited set as a dict.
MOVES = [[1, 3], [0, 2, 4], [1, 5], [0, 4, 6], [1, 3, 5, 7], [2, 4, 8], [3, 7], [4, 6, 8], [5, 7]]


def swap(s, i, j):
    if i > j:
        return swap(s, j, i)
    return s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]


def bfs(start):
    depth = {start: 0}
    queue = [start]
    head = 0
    far = 0
    while head < len(queue):
        s = queue[head]
        head = head + 1
        d = depth[s] + 1
        b = s.find("0")
        for j in MOVES[b]:
            t = swap(s, b, j)
            if t not in depth:
                depth[t] = d
                queue.append(t)
                if d > far:
                    far = d
    print("states:", len(depth), "depth:", far)


bfs("123456780")
