"""Reading a run's report (RCK_REPORT / rck run --report) and its trace.

A sim report has "rockcreek_sim_report" (docs/SIM.md, "Report"); a native
or mpi report has "rockcreek_report" and a "backend" (docs/MONITORING.md).
Both are normalised into a Run: what every view needs, with None where a
report does not have it (a native run has no cycles, no mesh, no energy).
"""

import gzip
import json
import os
import zlib

from .. import caps

CATEGORIES = ["compute", "mpb", "dram", "wait", "interrupts", "other"]


class ReportError(Exception):
    """A file that is missing, not JSON, or not a rockcreek report."""


class Run:
    """One run. Fields are None where the report has no such data."""

    def __init__(self, doc, path):
        self.path = path
        self.doc = doc
        sim = "rockcreek_sim_report" in doc
        self.backend = "sim" if sim else doc.get("backend", "?")
        # what the backend can do (caps.report_caps): views ask these,
        # never the backend's name
        self.capabilities = caps.report_caps(doc)
        self.timed = "timed" in self.capabilities
        self.chip = doc.get("chip", "?")
        self.nues = doc.get("nues")
        self.ended = doc.get("ended")
        self.core_mhz = doc.get("core_mhz")
        self.mesh_mhz = doc.get("mesh_mhz")
        self.memory_mhz = doc.get("memory_mhz")
        self.compute_model = (doc.get("compute_model") or {}).get("name")
        self.seconds = doc.get("simulated_seconds", doc.get("host_seconds"))
        self.cycles = doc.get("simulated_cycles")
        self.handovers = doc.get("handovers")
        self.cores = doc.get("cores")
        self.links = doc.get("mesh_links")
        self.hottest = doc.get("hottest_link")
        self.controllers = doc.get("memory_controllers")
        self.comm = doc.get("comm")
        self.energy = doc.get("energy")
        self.power = doc.get("power")
        self.dvfs = doc.get("dvfs")
        self.stale = doc.get("stale_reads")
        self.deadlock = doc.get("deadlock")
        self.trace_path = None

    @property
    def seconds_label(self):
        return "chip time" if self.timed else "host time"


def _read_json(path, what):
    # a trace written compressed (rck run --trace FILE.json.gz)
    opener = gzip.open if str(path).endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    except (gzip.BadGzipFile, EOFError, zlib.error) as e:
        raise ReportError("%s '%s': not a complete gzip file (%s)"
                          % (what, path, e))
    except FileNotFoundError:
        raise ReportError("%s '%s': no such file" % (what, path))
    except IsADirectoryError:
        raise ReportError("%s '%s': is a directory" % (what, path))
    except PermissionError:
        raise ReportError("%s '%s': permission denied" % (what, path))
    except UnicodeDecodeError:
        raise ReportError("%s '%s': not a text file" % (what, path))
    except json.JSONDecodeError as e:
        raise ReportError("%s '%s': not JSON (line %d, column %d: %s)"
                          % (what, path, e.lineno, e.colno, e.msg))


def load(path, trace=None):
    """Read a report; trace: a Chrome trace file to show as a timeline
    (default: none; the report does not name its trace)."""
    doc = _read_json(path, "report")
    if not isinstance(doc, dict) or not ("rockcreek_sim_report" in doc or
                                         "rockcreek_report" in doc):
        raise ReportError("report '%s': not a rockcreek report (no "
                          "'rockcreek_sim_report' or 'rockcreek_report' key;"
                          " write one with rck run --report FILE)" % path)
    run = Run(doc, path)
    if trace is not None:
        run.trace_path = trace
        run.trace = load_trace(trace)
    else:
        run.trace = None
    return run


def load_trace(path):
    """Complete ("X") events of a Chrome trace written by the sim:
    {tid: [(start_us, dur_us, cat, name)]} and the thread names."""
    doc = _read_json(path, "trace")
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise ReportError("trace '%s': no traceEvents list" % path)
    lanes, names = {}, {}
    for e in events:
        if not isinstance(e, dict):
            continue
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[e.get("tid")] = (e.get("args") or {}).get("name")
        if e.get("ph") != "X" or "ts" not in e or e.get("flow_in"):
            continue  # (flow_in: an arrow's end, not the core's work)
        lanes.setdefault(e.get("tid"), []).append(
            (float(e["ts"]), float(e.get("dur", 0)), e.get("cat", ""),
             e.get("name", "")))
    return {"lanes": lanes, "names": names, "path": os.path.abspath(path)}


def comm_totals(comm):
    """(bytes matrix summed over libraries, {library: bytes total},
    {library: messages total})."""
    if not comm:
        return None, {}, {}
    n = comm.get("ues", 0)
    total = [[0] * n for _ in range(n)]
    by_lib_bytes, by_lib_msgs = {}, {}
    for lib, m in (comm.get("bytes") or {}).items():
        s = 0
        for i, row in enumerate(m):
            for j, v in enumerate(row):
                total[i][j] += v
                s += v
        by_lib_bytes[lib] = s
    for lib, m in (comm.get("messages") or {}).items():
        by_lib_msgs[lib] = sum(sum(r) for r in m)
    return total, by_lib_bytes, by_lib_msgs
