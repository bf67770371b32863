#!/usr/bin/env python3
"""Compare two streams of S-Net records in the textual record format.

  snetcmp.py [--ordered] EXPECTED ACTUAL

Each file is read as records (a launcher's "[ N] " line prefixes are
dropped, whitespace between elements ignored); a record is compared as the
set of its entries (kind, label, text), so the order of entries inside a
record does not matter. With --ordered the records must come in the same
order (deterministic networks); without, as the same multiset. Both must end
with a terminate record. Exit 0 if equal, 1 with a diff otherwise.
"""
import re
import sys
from collections import Counter

ENT = re.compile(r'<(field|tag|btag)\s+label="([^"]*)"[^>]*>(.*?)</\1>', re.S)


def records(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"^\[\s*\d+\] ", "", text, flags=re.M)
    text = re.sub(r"<\?xml[^>]*\?>", "", text)
    out, terminated = [], False
    for m in re.finditer(r"<record\b([^>]*?)(/>|>(.*?)</record>)", text, re.S):
        if 'type="terminate"' in m.group(1):
            terminated = True
            continue
        body = m.group(3) or ""
        ents = tuple(sorted((k, l, v.strip()) for k, l, v in ENT.findall(body)))
        out.append(ents)
    return out, terminated


def show(r):
    return "{" + ", ".join(l if k == "field" and True else f"<{l}>" for k, l, v in r) \
        + "} " + " ".join(f"{l}={v}" for k, l, v in r)


def main():
    args = sys.argv[1:]
    ordered = "--ordered" in args
    args = [a for a in args if a != "--ordered"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    exp, et = records(args[0])
    act, at = records(args[1])
    ok = at and (exp == act if ordered else Counter(exp) == Counter(act))
    if ok:
        print(f"snetcmp: {len(act)} records equal"
              f"{' in order' if ordered else ''}")
        return 0
    if not at:
        print("snetcmp: the output has no terminate record")
    print(f"snetcmp: expected {len(exp)} records, got {len(act)}")
    for i in range(max(len(exp), len(act))):
        e = show(exp[i]) if i < len(exp) else "-"
        a = show(act[i]) if i < len(act) else "-"
        print(f"  {'  ' if e == a else '!='} {i}: expected {e}\n       got      {a}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
