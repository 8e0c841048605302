# A 3-million-iteration while loop with arithmetic on locals (the twin of loop.ds).
def run():
    i = 0
    s = 0
    while i < 3000000:
        s = (s + i * 3) % 1000003
        i = i + 1
    return s

print(run())
