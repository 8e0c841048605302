# The Python twin of count/*_while_*.ds: a while in a function.
def run():
    i = 0
    s = 0
    while i < 3000000:
        s += i % 7
        i += 1
    return s

print(run())
