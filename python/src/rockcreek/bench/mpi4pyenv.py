"""mpi4py built against one MPI, in a cache outside the repository.

The `python` bench suite and the pympi4py tests need mpi4py twice: built
against librckmpi (MPICC=rckmpicc) and against the system's Open MPI
(MPICC=mpicc.openmpi). Each is a virtual environment of its own,
<cache>/<kind> (default cache: <build>/mpi4py), made with the Python
running this (with --system-site-packages, so NumPy comes from it) and
filled by pip from PyPI:

    MPICC=<mpicc> <venv>/bin/pip install --no-cache-dir --no-binary mpi4py mpi4py

(--no-cache-dir: pip's cache of locally built wheels would hand the
librckmpi build to the Open MPI environment, both being built from the
same sdist). $RCK_MPI4PY_SOURCE names something else for pip to install
instead of "mpi4py" (a local sdist: no download of mpi4py itself).
Compiling mpi4py's MPI.c (-O3, as Python's own flags say) takes some
minutes of CPU; $RCK_MPI4PY_TIMEOUT (seconds, default 3600) ends a build
that takes longer, compilers included.

    python3 -m rockcreek.bench.mpi4pyenv --build-dir build [--kind rckmpi|openmpi|all]

prints, per kind, the environment's python or "skipped: <reason>"; exit
status 0 when every kind asked for is there, 1 otherwise.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from typing import Callable, Optional, Tuple

KINDS = ("rckmpi", "openmpi")
STAMP = "rockcreek-mpi4py.json"
# what the environment's mpi4py must say it was built against
_EXPECT = {"rckmpi": "rockcreek", "openmpi": "open mpi"}
_CHECK = ("import mpi4py; mpi4py.rc.initialize = False; mpi4py.rc.finalize = False; "
          "from mpi4py import MPI; print(mpi4py.__version__); "
          "print(MPI.Get_library_version().strip().splitlines()[0])")


def default_cache(build_dir: str) -> str:
    return os.environ.get("RCK_MPI4PY_CACHE") or os.path.join(
        os.path.abspath(build_dir), "mpi4py")


def mpicc_for(kind: str, build_dir: str) -> Tuple[Optional[str], str]:
    """(the compiler wrapper for @p kind, or None; why not)."""
    if kind == "rckmpi":
        p = os.path.join(os.path.abspath(build_dir), "src", "tools", "rckmpicc")
        if os.access(p, os.X_OK):
            return p, ""
        return None, "%s not built (make)" % p
    for name in ("mpicc.openmpi", "mpicc"):
        p = shutil.which(name)
        if p is None:
            continue
        if name == "mpicc":  # only Open MPI's, not another MPI's wrapper
            q = subprocess.run([p, "--showme:version"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if q.returncode != 0 or "open mpi" not in q.stdout.lower():
                continue
        return p, ""
    return None, "Open MPI's mpicc not found (apt-get install libopenmpi-dev openmpi-bin)"


def venv_python(cache: str, kind: str) -> str:
    return os.path.join(cache, kind, "bin", "python")


def check(py: str, kind: str) -> Tuple[bool, str]:
    """Does @p py import an mpi4py built against @p kind's MPI? (ok, what
    it says: version and library, or the error)."""
    if not os.access(py, os.X_OK):
        return False, "%s does not exist" % py
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    try:
        p = subprocess.run([py, "-c", _CHECK], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "%s: importing mpi4py timed out" % py
    out = p.stdout.strip()
    if p.returncode != 0:
        return False, "%s cannot import mpi4py: %s" % (py, out.splitlines()[-1] if out else "?")
    if _EXPECT[kind] not in out.lower():
        return False, "%s's mpi4py is not built against %s: %s" % (py, kind, out)
    return True, out.replace("\n", ", ")


def ensure(kind: str, build_dir: str, cache: Optional[str] = None,
           log: Callable[[str], None] = print, build: bool = True) -> Tuple[Optional[str], str]:
    """The python of an environment whose mpi4py is built against @p kind's
    MPI, building it if needed (and @p build); (None, reason) when it
    cannot be had. Never raises for a missing tool or network."""
    if kind not in KINDS:
        raise ValueError("mpi4pyenv: kind %r is not one of %s" % (kind, ", ".join(KINDS)))
    cache = cache or default_cache(build_dir)
    py = venv_python(cache, kind)
    mpicc, why = mpicc_for(kind, build_dir)
    stamp = os.path.join(cache, kind, STAMP)
    if os.path.exists(py):
        ok, what = check(py, kind)
        try:
            with open(stamp) as f:
                same = json.load(f).get("mpicc") == mpicc
        except (OSError, ValueError):
            same = False
        if ok and (same or mpicc is None):
            return py, what
        if not build:
            return None, what if not ok else "built with another mpicc"
    if not build:
        return None, "not built (scripts/build-mpi4py.sh)"
    if mpicc is None:
        return None, why
    return _build(kind, mpicc, os.path.join(cache, kind), log)


def _build(kind: str, mpicc: str, env_dir: str, log: Callable[[str], None]):
    t0 = time.time()
    if os.path.isdir(env_dir):
        shutil.rmtree(env_dir)
    os.makedirs(os.path.dirname(env_dir), exist_ok=True)
    p = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", env_dir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return None, "python -m venv failed: %s" % p.stdout.strip().splitlines()[-1:]
    py = os.path.join(env_dir, "bin", "python")
    source = os.environ.get("RCK_MPI4PY_SOURCE") or "mpi4py"
    log("mpi4py (%s): building with MPICC=%s from %s into %s (a few minutes) ..."
        % (kind, mpicc, source, env_dir))
    # -g0: no debug information for the large C file Cython makes of
    # MPI.pyx (less compile time); the code is the same -O3 as Python's
    # flags give
    env = dict(os.environ, MPICC=mpicc, CFLAGS=(os.environ.get("CFLAGS", "") + " -g0").strip())
    env.pop("PYTHONPATH", None)
    logfile = os.path.join(env_dir, "pip-install.log")
    cmd = [py, "-m", "pip", "install", "--no-cache-dir", "--no-binary", "mpi4py",
           "--disable-pip-version-check", source]
    limit = float(os.environ.get("RCK_MPI4PY_TIMEOUT", "3600"))
    with open(logfile, "w") as lf:
        # a session of its own: a timeout ends pip and the compilers it started
        p = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
        try:
            p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return None, ("pip install of mpi4py took more than %.0f s ($RCK_MPI4PY_TIMEOUT; "
                          "see %s)" % (limit, logfile))
    if p.returncode != 0:
        return None, "pip install of mpi4py failed (no network or PyPI? see %s): %s" % (
            logfile, _last_error(logfile))
    ok, what = check(py, kind)
    if not ok:
        return None, what
    with open(os.path.join(env_dir, STAMP), "w") as f:
        json.dump({"mpicc": mpicc, "source": source, "built": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "seconds": round(time.time() - t0, 1),
            "mpi4py": what}, f)
    log("mpi4py (%s): built in %.0f s: %s" % (kind, time.time() - t0, what))
    return py, what


def _last_error(logfile: str) -> str:
    try:
        with open(logfile) as f:
            lines = [ln.strip() for ln in f if ln.strip()]
    except OSError:
        return "?"
    errs = [ln for ln in lines if "error" in ln.lower()]
    return (errs or lines or ["?"])[-1][:200]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m rockcreek.bench.mpi4pyenv",
                                 description="build mpi4py against librckmpi and/or Open MPI "
                                 "into a cache outside the repository")
    ap.add_argument("--build-dir", required=True, help="rockcreek's build directory")
    ap.add_argument("--kind", default="rckmpi", choices=KINDS + ("all",))
    ap.add_argument("--cache", help="default: $RCK_MPI4PY_CACHE or <build-dir>/mpi4py")
    ap.add_argument("--check", action="store_true", help="only say what is there; build nothing")
    a = ap.parse_args(argv)
    kinds = KINDS if a.kind == "all" else (a.kind,)
    status = 0
    for k in kinds:
        py, what = ensure(k, a.build_dir, a.cache, build=not a.check)
        if py:
            print("mpi4py (%s): %s (%s)" % (k, py, what))
        else:
            print("mpi4py (%s): skipped: %s" % (k, what))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
