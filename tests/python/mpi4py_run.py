"""mpi4py_run.py PY -- COMMAND...: run COMMAND (an `rck run` of PY) when PY
imports an mpi4py built against librckmpi; otherwise print "skipped:
<reason>" and exit 77 (CTest's SKIP_RETURN_CODE of the pympi4py tests).
PY is -DRCK_MPI4PY_PYTHON, or the environment scripts/build-mpi4py.sh and
`bench --suite python` build in <build>/mpi4py/rckmpi."""

import os
import subprocess
import sys

from rockcreek.bench import mpi4pyenv

SKIP = 77


def main(argv):
    if len(argv) < 3 or argv[1] != "--":
        print("usage: mpi4py_run.py PY -- COMMAND...", file=sys.stderr)
        return 2
    py, cmd = argv[0], argv[2:]
    ok, what = mpi4pyenv.check(py, "rckmpi")
    if not ok:
        print("skipped: no mpi4py built against librckmpi (%s); build one with "
              "scripts/build-mpi4py.sh BUILD_DIR" % what, flush=True)
        return SKIP
    print("mpi4py_run: %s: %s" % (py, what), flush=True)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # the demos import mpi4py, not rockcreek
    return subprocess.call(cmd, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
