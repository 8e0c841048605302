# Map updates (the Python twin of maps.ds): 1e6 times `m[k] = m[k] + 1` over 10,007 number
# keys, the key stepping by a stride of 7,919, and a read of another key each time; then a sum
# over the map in key order. Floats, as ds numbers are. The map is filled with the keys in
# order, or with `shuffled` as the argument in the order of the stride.
import sys


def run(step):
    n = 10007.0
    m = {}
    k = 0.0
    for _ in range(10007):
        m[k] = 0.0
        k = (k + step) % n
    k = 0.0
    i = 0.0
    s = 0.0
    while i < 1000000:
        m[k] = m[k] + 1
        s = (s + m[(k * 3) % n]) % 1000003
        k = (k + 7919) % n
        i = i + 1
    t = 0.0
    for p in sorted(m):
        t = t + p * m[p]
    return s, t


s, t = run(7919 if sys.argv[1:] == ["shuffled"] else 1)
print("%d %d" % (s, t))
