# The Python twin of graph/*.ds: 2,000 nodes, the even ones `on` the next; 3,000 rounds of
# counting the nodes with an `on` edge, over each node's set of targets.
def run():
    on = [set() for _ in range(2000)]
    for i in range(0, 2000, 2):
        on[i].add(i + 1)
    c = 0
    for _ in range(3000):
        for x in range(2000):
            if on[x]:
                c += 1
    return c

print(run())
