"""A run's report, trace and message log as NumPy arrays or pandas data
frames, for analysis (docs/PYTHON.md, "Loading a run").

NumPy is needed; pandas only for the ``*_frame`` functions (a missing one
raises ImportError naming it). The files: ``rck run --report FILE``
(docs/MONITORING.md, docs/SIM.md "Report"), ``--trace FILE`` (Chrome
trace, sim) and ``--msglog FILE`` (one JSON object per line).

    from rockcreek.report import data
    run = data.load_report("run.json")
    data.core_cycles(run)          # structured array: ue, core, cycles, compute, ...
    data.comm_matrix(run)          # (ues x ues) bytes, summed over libraries
    data.power_series(run)         # t_s, chip_w (and island_w columns)
    data.msglog_frame("log.jsonl") # pandas: t, ue, op, peer, bytes, lib, call
"""

import json
from typing import Any, Dict, List, Optional

from .load import CATEGORIES, ReportError, Run, load, load_trace

__all__ = ["load_report", "core_cycles", "core_frame", "comm_matrix", "comm_frame",
           "power_series", "power_frame", "read_msglog", "msglog_frame", "trace_frame",
           "ReportError"]

CORE_FIELDS = ["ue", "core", "cycles"] + CATEGORIES + ["hal_calls", "handovers",
                                                      "mpb_lines_written", "mpb_lines_read",
                                                      "stale_reads", "dram_accesses"]


def _np():
    from .._deps import require
    return require("numpy", "rockcreek.report.data")


def _pd():
    from .._deps import require
    return require("pandas", "rockcreek.report.data")


def load_report(path: str, trace: Optional[str] = None) -> Run:
    """The run (rockcreek.report.load.load): ReportError for a missing or
    malformed file."""
    return load(path, trace)


def _run(run_or_path: Any) -> Run:
    return run_or_path if isinstance(run_or_path, Run) else load(run_or_path)


def core_cycles(run_or_path: Any):
    """Per-core counters of a sim report as a NumPy structured array (one
    row per UE; fields CORE_FIELDS, -1 where a core lacks one). A native
    or mpi report has no cycles: ReportError."""
    np = _np()
    run = _run(run_or_path)
    if not run.cores:
        raise ReportError("report '%s' has no per-core cycles (only the sim backend "
                          "writes them)" % run.path)
    dt = np.dtype([(f, np.int64) for f in CORE_FIELDS])
    out = np.zeros(len(run.cores), dtype=dt)
    for i, c in enumerate(run.cores):
        for f in CORE_FIELDS:
            v = c.get(f, -1)
            out[i][f] = v if isinstance(v, (int, float)) else -1
    return out


def core_frame(run_or_path: Any):
    """core_cycles as a pandas DataFrame indexed by UE."""
    pd = _pd()
    return pd.DataFrame(core_cycles(run_or_path)).set_index("ue")


def comm_matrix(run_or_path: Any, lib: Optional[str] = None, what: str = "bytes"):
    """The communication matrix (sender row, receiver column) as a NumPy
    array: @p what "bytes" or "messages", of one library (rcce, ircce,
    mbox, chan, svm, mpi) or summed over all of them."""
    np = _np()
    run = _run(run_or_path)
    comm = run.comm
    if not comm:
        raise ReportError("report '%s' has no communication matrix" % run.path)
    if what not in ("bytes", "messages"):
        raise ValueError("what must be 'bytes' or 'messages', not %r" % what)
    mats: Dict[str, Any] = comm.get(what) or {}
    n = int(comm.get("ues", 0))
    if lib is not None:
        if lib not in mats:
            raise ReportError("report '%s': no library %r in the matrix (has %s)" % (
                run.path, lib, ", ".join(sorted(mats))))
        return np.asarray(mats[lib], dtype=np.int64).reshape(n, n)
    total = np.zeros((n, n), dtype=np.int64)
    for m in mats.values():
        total += np.asarray(m, dtype=np.int64).reshape(n, n)
    return total


def comm_frame(run_or_path: Any):
    """Long form of every library's matrix: pandas DataFrame with columns
    lib, src, dst, bytes, messages (non-zero rows only)."""
    pd = _pd()
    np = _np()
    run = _run(run_or_path)
    comm = run.comm or {}
    rows: List[Dict[str, Any]] = []
    for lib in comm.get("libraries", []):
        b = comm_matrix(run, lib, "bytes")
        try:
            m = comm_matrix(run, lib, "messages")
        except ReportError:
            m = np.zeros_like(b)
        for s, d in zip(*np.nonzero(b + m)):
            rows.append({"lib": lib, "src": int(s), "dst": int(d), "bytes": int(b[s, d]),
                         "messages": int(m[s, d])})
    return pd.DataFrame(rows, columns=["lib", "src", "dst", "bytes", "messages"])


def power_series(run_or_path: Any) -> Dict[str, Any]:
    """The sim's power series as NumPy arrays: t_s, chip_w, and island_w (a
    2-D array, time x island) where the report has it."""
    np = _np()
    run = _run(run_or_path)
    series = (run.power or {}).get("series")
    if not series:
        raise ReportError("report '%s' has no power series (sim backend only)" % run.path)
    out = {"t_s": np.asarray(series.get("t_s", []), dtype=float),
           "chip_w": np.asarray(series.get("chip_w", []), dtype=float)}
    if series.get("island_w") is not None:
        out["island_w"] = np.asarray(series["island_w"], dtype=float)
    return out


def power_frame(run_or_path: Any):
    """power_series as a pandas DataFrame indexed by t_s (island_<i>
    columns for the islands)."""
    pd = _pd()
    s = power_series(run_or_path)
    cols = {"chip_w": s["chip_w"]}
    isl = s.get("island_w")
    if isl is not None and isl.ndim == 2 and isl.shape[0] == len(s["t_s"]):
        for i in range(isl.shape[1]):
            cols["island_%d" % i] = isl[:, i]
    return pd.DataFrame(cols, index=pd.Index(s["t_s"], name="t_s"))


MSGLOG_KEYS = ("t", "ue", "op", "peer", "bytes", "lib", "call")


def read_msglog(path: str) -> List[Dict[str, Any]]:
    """The message log's lines, sorted by (t, ue); ReportError naming the
    line of a malformed one."""
    out = []
    try:
        f = open(path, "r", encoding="utf-8")
    except OSError as e:
        raise ReportError("message log '%s': %s" % (path, e.strerror))
    with f:
        for no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                raise ReportError("message log '%s', line %d: not JSON (%s)" % (path, no, e.msg))
            if not isinstance(d, dict) or any(k not in d for k in MSGLOG_KEYS[:6]):
                raise ReportError("message log '%s', line %d: not a message-log line (needs "
                                  "%s)" % (path, no, ", ".join(MSGLOG_KEYS[:6])))
            out.append(d)
    out.sort(key=lambda d: (d["t"], d["ue"]))
    return out


def msglog_frame(path: str):
    """The message log as a pandas DataFrame (columns MSGLOG_KEYS), in time
    order."""
    pd = _pd()
    return pd.DataFrame(read_msglog(path), columns=list(MSGLOG_KEYS))


def trace_frame(path: str):
    """A Chrome trace's complete events (sim ``--trace``) as a pandas
    DataFrame: tid, lane (thread name), start_us, dur_us, cat, name."""
    pd = _pd()
    t = load_trace(path)
    rows = [{"tid": tid, "lane": t["names"].get(tid), "start_us": s, "dur_us": d, "cat": c,
             "name": n} for tid, evs in t["lanes"].items() for (s, d, c, n) in evs]
    return pd.DataFrame(rows, columns=["tid", "lane", "start_us", "dur_us", "cat", "name"])
