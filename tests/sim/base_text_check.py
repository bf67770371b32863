#!/usr/bin/env python3
"""Is the simulator's own code of a statically linked program where the
P54C model's QEMU engine leaves it out (section rck_base_text;
cmake/base_text.sh, docs/P54C.md "What QEMU counts")?

    base_text_check.py OBJDUMP PROGRAM OBJECT...

OBJECT...: the objects of the simulator's layers (util, hal, backends).
Every global function they define that PROGRAM has (by name: a copy that
link-time optimisation made, name.constprop.0, name.lto_priv.0, counts
as name) must lie in PROGRAM's rck_base_text; and at least one must be
found. Exit 1 naming the first functions that lie elsewhere."""
import subprocess
import sys


def functions(objdump, path):
    """(name, section) of every function symbol defined in path."""
    out = subprocess.run([objdump, "-t", path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        # addr flags section size [.hidden] name; the flags are 7 columns
        if "\t" not in line or len(line) < 26 or line[23] != "F":
            continue
        head, tail = line.split("\t", 1)
        section = head[25:].strip()
        name = tail.split()[-1]
        if section in ("*UND*", "*ABS*") or not name:
            continue
        yield name, section, line[17] == "g"


def base(name):
    return name.split(".", 1)[0]


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    objdump, prog = argv[1], argv[2]
    # CMake passes a list of objects as one argument, split by ';'
    objs = [o for a in argv[3:] for o in a.split(";") if o]
    want = set()
    for o in objs:
        for name, section, glob in functions(objdump, o):
            # the global ones: a static function's name may be another
            # file's too
            if glob and section == "rck_base_text":
                want.add(base(name))
    if not want:
        print("no function in rck_base_text in the base objects: "
              "were they built through cmake/base_text.sh?")
        return 1
    inside, outside = 0, []
    for name, section, _ in functions(objdump, prog):
        if base(name) not in want:
            continue
        if section == "rck_base_text":
            inside += 1
        else:
            outside.append("%s in %s" % (name, section))
    print("%s: %d functions of the simulator's layers in rck_base_text, "
          "%d elsewhere" % (prog, inside, len(outside)))
    if outside:
        print("outside rck_base_text (the QEMU engine counts them as the "
              "program's): " + ", ".join(sorted(outside)[:20]))
        return 1
    if inside == 0:
        print("none of the simulator's functions found in the program")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
