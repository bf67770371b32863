"""installed_check.py: run by tests/python/install_test.sh under an
installed `rck run`: the rockcreek package, its compiled module and
librockcreek all come from the install prefix ($RCK_TEST_PREFIX), and
the binding is the compiled module's ("api")."""

import os
import sys

from rockcreek import rcce


def main() -> int:
    prefix = os.path.realpath(os.environ["RCK_TEST_PREFIX"])
    rcce.init()
    me = rcce.ue()
    problems = []

    def under(what, path):
        if not os.path.realpath(path).startswith(prefix + os.sep):
            problems.append("%s is %s, not under %s" % (what, path, prefix))

    under("the rockcreek package", rcce.__file__)
    if rcce.binding() != "api":
        problems.append("binding %r, expected 'api' (the installed compiled module)"
                        % rcce.binding())
    else:
        under("the compiled module", sys.modules["_rockcreek_rcce"].__file__)
    with open("/proc/self/maps") as f:
        libs = {ln.split()[-1] for ln in f if "librockcreek.so" in ln}
    if not libs:
        problems.append("librockcreek.so is not mapped")
    for lib in libs:
        under("librockcreek", lib)
    rcce.COMM_WORLD.Barrier()
    for p in problems:
        print("installed_check: UE %d: %s" % (me, p), flush=True)
    if not problems:
        print("installed_check: UE %d: OK (%s, %s)" % (me, rcce.binding(), sorted(libs)[0]),
              flush=True)
    rcce.finalize()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
