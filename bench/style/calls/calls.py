# The Python twin of calls/*.ds: 1 million calls of a small function.
def f(x):
    return x % 7 + 1

def run():
    i = 0
    s = 0
    while i < 1000000:
        s = s + f(i)
        i = i + 1
    return s

print(run())
