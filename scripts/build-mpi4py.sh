#!/bin/sh
# build-mpi4py.sh [BUILD_DIR] [rckmpi|openmpi|all]: build mpi4py from PyPI
# against librckmpi (MPICC=<build>/src/tools/rckmpicc) and/or the system's
# Open MPI, each into a virtual environment of its own under
# <build>/mpi4py/<kind> ($RCK_MPI4PY_CACHE to put them elsewhere), for the
# pympi4py tests and `bench --suite python` (docs/PYTHON.md). Already
# built and still importable: nothing to do. Needs pip and PyPI (or
# RCK_MPI4PY_SOURCE=<a local mpi4py sdist>); prints "skipped: <reason>"
# and exits 1 when it cannot.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
kind=${2:-rckmpi}
exec env PYTHONPATH="$here/python/src" "${PYTHON:-python3}" -m rockcreek.bench.mpi4pyenv \
    --build-dir "$build" --kind "$kind"
