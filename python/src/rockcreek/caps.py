"""What a backend can do (issue 32: capabilities, not names).

Code that behaves differently on some backend asks one of these, never the
backend's name: scripts/check-backend-names.py refuses a comparison with
"sim", "native" or "mpi" in python/src as in the C sources. The words are
the C side's (RCK_CAP_* in src/hal/rck/hal.h, rck_cap_name): "timed",
"schedules", "shared_memory", "idle_cores", "stdin_route", "mpirun",
"progress".

  backend_caps(rck)        {backend: frozenset of words}: `rck backends --json`
  timed(rck, backend)      the backend has a virtual-time model
  report_caps(doc)         the words of a run's report
"""

import json
import subprocess

_CACHE = {}


class CapsError(Exception):
    """`rck backends` could not be asked."""


def backend_caps(rck):
    """{backend: frozenset of capability words} of the backends compiled
    into the launcher @p rck (its path), asked once per path."""
    if rck not in _CACHE:
        try:
            p = subprocess.run([rck, "backends", "--json"], check=True,
                               capture_output=True, text=True, timeout=60)
            doc = json.loads(p.stdout)
        except (OSError, subprocess.SubprocessError, ValueError) as e:
            raise CapsError("cannot ask %s for its backends' capabilities: "
                            "%s" % (rck, e))
        _CACHE[rck] = {b: frozenset(c) for b, c in doc.items()}
    return _CACHE[rck]


def has(rck, backend, cap):
    """Does @p backend (of the launcher @p rck) have capability @p cap?"""
    return cap in backend_caps(rck).get(backend, frozenset())


def timed(rck, backend):
    """Does @p backend time the run on a model (chip time, not host
    time)?"""
    return has(rck, backend, "timed")


def report_caps(doc):
    """The capability words of a report: its "capabilities" (native and
    mpi reports); a sim report (docs/SIM.md, "Report"), whose format is the
    timed model's, is "timed" by its simulated cycles."""
    if isinstance(doc.get("capabilities"), list):
        return frozenset(doc["capabilities"])
    return frozenset(["timed"]) if "simulated_cycles" in doc else frozenset()
