# The Python twin of append/*.ds: 1 million appends of "ab", as pieces joined once (`r += "ab"`
# on a str copies the whole string each time on this CPython build: 118 s).
def run():
    parts = []
    i = 0
    while i < 1000000:
        parts.append("ab")
        i = i + 1
    return len("".join(parts))

print(run())
