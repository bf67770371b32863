#!/usr/bin/env python3
"""A library's own row in a run's report (issue 32: libraries register).

  check_lib_row.py REPORT LIB [OTHER...]

The report's communication matrix names LIB among its libraries, LIB's
messages are counted (some UE sent some), and they are counted under LIB
only: every OTHER library named is listed with no message at all.
"""
import json
import sys


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        comm = json.load(fh)["comm"]
    lib, others = argv[2], argv[3:]
    libs = comm["libraries"]
    if lib not in libs:
        print(f"{lib} is not among the report's libraries {libs}")
        return 1
    sent = sum(sum(row) for row in comm["messages"][lib])
    if sent == 0:
        print(f"{lib}'s row counts no message")
        return 1
    for o in others:
        n = sum(sum(row) for row in comm["messages"].get(o, []))
        if n:
            print(f"{o} counts {n} messages of {lib}'s")
            return 1
    print(f"{lib}: {sent} messages in a row of its own among {libs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
