# The Python twin of count/*_for_range.ds: for over range in a function.
def run():
    s = 0
    for i in range(3000000):
        s = s + i % 7
    return s

print(run())
