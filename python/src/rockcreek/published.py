"""The published SCC figures (config/published.json: their one home) and
the chip's clock, for the bench and the docs generator.

The file is found, in order: ``$RCK_PUBLISHED``; ``config/published.json``
of the source tree this package sits in; ``share/rockcreek/published.json``
of the installed tree it sits in (``make install`` puts the package in
``share/rockcreek/python``), or of the Python prefix, /usr/local or /usr. A figure is ``{"value", "unit",
"source", "doc", "chip"?, "ranges"?}``; ``series()`` gives a hop series with
the entries the source publishes as a range as ``(low, high)`` tuples.

The core clock is never written down here: ``chip_core_mhz()`` reads it from
a chip file (the default one of the tree), and the bench reads it from a
run's report or sim_calib's info line.
"""

import json
import os
import sys

__all__ = ["PublishedError", "find", "load", "figure", "value", "series",
           "operating_point", "find_chip_file", "chip_core_mhz"]


class PublishedError(RuntimeError):
    """The published figures or the chip file could not be read."""


_cache = {}


def _candidates(name):
    here = os.path.dirname(os.path.abspath(__file__))
    d = here
    for _ in range(6):
        yield os.path.join(d, "config", name)  # a source tree
        yield os.path.join(d, name)  # <prefix>/share/rockcreek
        d = os.path.dirname(d)
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        yield os.path.join(prefix, "share", "rockcreek", name)


def find():
    """Path of published.json (see the module's doc); PublishedError if
    there is none."""
    env = os.environ.get("RCK_PUBLISHED")
    if env:
        if not os.path.isfile(env):
            raise PublishedError("RCK_PUBLISHED=%s: no such file" % env)
        return env
    for p in _candidates("published.json"):
        if os.path.isfile(p):
            return p
    raise PublishedError("config/published.json not found (set "
                         "RCK_PUBLISHED to its path)")


def load(path=None):
    """The parsed file ({"figures": {...}, ...}), read once per path."""
    path = path or find()
    if path not in _cache:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise PublishedError("%s: %s" % (path, e)) from None
        figs = doc.get("figures") if isinstance(doc, dict) else None
        if not isinstance(figs, dict):
            raise PublishedError("%s: no \"figures\" object" % path)
        for name, f in figs.items():
            if not isinstance(f, dict) or "value" not in f or \
                    "unit" not in f or "source" not in f:
                raise PublishedError("%s: figure %r needs value, unit and "
                                     "source" % (path, name))
        _cache[path] = doc
    return _cache[path]


def figure(name, path=None):
    """The figure's whole entry; PublishedError naming it if absent."""
    figs = load(path)["figures"]
    if name not in figs:
        raise PublishedError("no published figure %r" % name)
    return figs[name]


def value(name, path=None):
    """The figure's value (a number or a list)."""
    return figure(name, path)["value"]


def series(name, path=None):
    """A list figure with its published ranges as (low, high) tuples."""
    f = figure(name, path)
    out = list(f["value"])
    for i, r in (f.get("ranges") or {}).items():
        out[int(i)] = (r[0], r[1])
    return out


def operating_point(path=None):
    """{"core", "mesh", "memory"} MHz the figures were measured at."""
    return dict(load(path)["operating_point_mhz"])


def find_chip_file(name="scc-533-800-800.json"):
    """A chip file of the tree (config/chips/NAME) or of an install."""
    for p in _candidates(os.path.join("chips", name)):
        if os.path.isfile(p):
            return p
    raise PublishedError("chip file %s not found" % name)


def chip_core_mhz(path=None):
    """The base core clock (frequencies_mhz.core) of a chip file, by
    default the tree's default chip."""
    path = path or find_chip_file()
    try:
        with open(path) as f:
            mhz = json.load(f)["frequencies_mhz"]["core"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PublishedError("%s: no frequencies_mhz.core (%s)"
                             % (path, e)) from None
    if not isinstance(mhz, (int, float)) or not mhz > 0:
        raise PublishedError("%s: frequencies_mhz.core is not a positive "
                             "number" % path)
    return float(mhz)
