"""Pure functions of the two sim suites (no processes, files or clocks):

* ``sim-calibration``: the published SCC measurements (the reference's
  SCC-HARDWARE.md, sections 1 and 2), the parser of ``bench/sim_calib.c``'s
  output, and the comparison of every modelled figure with its published
  value (ratio, PASS/FAIL within 5%, or why there is no comparison);
* ``sim-speed``: parsing the sim backend's JSON report and summary, the
  stencil's output, and the speed figures (host time / simulated chip time,
  simulated cycles per host second, hand-overs per operation) with their
  target verdicts.

Tested with synthetic data in python/tests/test_simbench.py.
"""

import math
import re

from .. import published
from . import report
from .report import BenchParseError

__all__ = [
    "PASS", "FAIL", "NOT_MODELLED", "NOT_HAL", "NO_FIGURE", "ERROR",
    "NOT_MEASURED", "BOUND_OK", "BOUND_FAIL", "TOLERANCE",
    "MPB_WRITE_TABLE", "MPB_READ_TABLE", "MPB_WRITE_BY_HOPS",
    "MPB_READ_BY_HOPS", "DRAM_BY_MC", "BANDWIDTH", "MESH_X", "MESH_Y",
    "tile_hops", "published_text", "ratio_to_published", "within",
    "mpb_table_deviations", "calibration_catalogue", "parse_calib_output",
    "bandwidth_mib_s", "evaluate_calibration", "calibration_summary",
    "calibration_table", "calibration_outputs_equal",
    "SPEED_BENCHES", "speed_benches", "bench_warmup_reps",
    "pingpong_messages", "parse_sim_report", "parse_sim_summary",
    "parse_stencil_output", "speed_point", "aggregate_speed",
    "speed_verdicts", "speed_table",
]

# ---------------------------------------------------------------------------
# Statuses of a calibration row.

PASS = "PASS"
FAIL = "FAIL"
NOT_MODELLED = "not modelled yet"
NOT_HAL = "not a HAL operation: not modelled"
NO_FIGURE = "no published figure"
ERROR = "ERROR"
NOT_MEASURED = "not measured"
BOUND_OK = "PASS (bound)"
BOUND_FAIL = "FAIL (bound)"

TOLERANCE = 0.05  # the target: within 5% of the published value

# ---------------------------------------------------------------------------
# The published measurements (config/published.json, their one home; cycles
# of a core at the operating point published.operating_point() gives). A
# value is a number or a (low, high) range.

_OP = published.operating_point()
MESH_X, MESH_Y = 6, 4
# the clock the figures were measured at (the modelled one comes from
# sim_calib's info line)
CORE_MHZ = float(_OP["core"])

# 2.1: from a core on tile (0, 0) to the MPB of tile (x, y): rows are y.
MPB_WRITE_TABLE = published.value("mpb.line_write_table")
MPB_READ_TABLE = published.value("mpb.dword_read_table")
# 2.1: the hop-indexed series (0..8 hops), which the reference says to use.
MPB_WRITE_BY_HOPS = published.series("mpb.line_write_by_hops")
MPB_READ_BY_HOPS = published.series("mpb.dword_read_by_hops")

# 2.2: from core 0, by memory controller.
DRAM_BY_MC = {
    "hops": published.value("dram.hops"),
    "dram_read": published.value("dram.dword_read_uncached"),
    "dram_write_uc": published.value("dram.line_write_uncached"),
    "dram_write_mpbt": published.value("dram.line_write_mpbt"),
}

# 2.3: sustained bandwidth of one core, MiB/s ("up to").
BANDWIDTH = {(m, d): published.value("bw.%s.%s" % (m, d))
             for m in ("l2hit", "l2miss", "uncached", "mpbt")
             for d in ("read", "write")}


def _pub(name):
    return published.value(name)


_MAPPING_NAMES = {"l2hit": "L2-cached, hit", "l2miss": "L2-cached, miss",
                  "uncached": "uncached", "mpbt": "MPBT (L2 bypassed, WCB)"}


def tile_hops(x, y, x0=0, y0=0):
    """Mesh hops (XY routing: the Manhattan distance) between tiles."""
    return abs(x - x0) + abs(y - y0)


def published_text(p):
    """A published value for humans: '84', '89-90', '-' for None."""
    if p is None:
        return "-"
    if isinstance(p, (tuple, list)):
        return "%s-%s" % (report.format_value(p[0]),
                          report.format_value(p[1]))
    return report.format_value(p)


def _mid(p):
    if isinstance(p, (tuple, list)):
        return (p[0] + p[1]) / 2.0
    return p


def ratio_to_published(modelled, published):
    """modelled / published; for a published range (lo, hi), against its
    nearest end (1.0 inside the range). None if either is missing or the
    published value is zero."""
    if modelled is None or published is None:
        return None
    if isinstance(published, (tuple, list)):
        lo, hi = published
        if lo <= modelled <= hi:
            return 1.0
        ref = lo if modelled < lo else hi
    else:
        ref = published
    if ref == 0:
        return None
    return modelled / ref


def within(ratio, tol=TOLERANCE):
    """True if a ratio is within tol of 1 (a little slack for rounding)."""
    return ratio is not None and abs(ratio - 1.0) <= tol + 1e-9


def mpb_table_deviations(table, by_hops):
    """Cells of a published (x, y) table that disagree with the hop series.

    Returns a list of {x, y, hops, table, series, diff} for every cell whose
    value lies outside the series value (or range) at its hop count; diff is
    the distance to the series in cycles."""
    out = []
    for y, row in enumerate(table):
        for x, v in enumerate(row):
            h = tile_hops(x, y)
            s = by_hops[h]
            lo, hi = (s if isinstance(s, (tuple, list)) else (s, s))
            if not lo <= v <= hi:
                out.append({"x": x, "y": y, "hops": h, "table": v,
                            "series": s,
                            "diff": v - hi if v > hi else v - lo})
    return out


def _row(rid, group, name, unit, published, section, kind="measure",
         note="", **extra):
    d = {"id": rid, "group": group, "name": name, "unit": unit,
         "published": published, "section": section, "kind": kind,
         "note": note}
    d.update(extra)
    return d


def _irq_rows():
    """The interrupt rows of calibration_catalogue."""
    ipi = _pub("irq.ipi_delivery_min")
    return [
        _row("irq.gic.same_tile", "interrupts",
             "GIC interrupt, raise -> handler, same tile", "cycles", ipi,
             "2.5", note="published as 'at least about', incl. the trap"),
        _row("irq.pin.same_tile", "interrupts",
             "pin interrupt, raise -> handler, same tile", "cycles", ipi,
             "2.5", note="published as 'at least about', incl. the trap"),
        _row("irq.gic.mesh", "interrupts",
             "GIC interrupt, raise -> handler, across the mesh", "cycles",
             None, "2.5", kind="bound", bound=ipi,
             note="published only as 'more' than the same tile's %g" % ipi),
        _row("irq.pin.mesh", "interrupts",
             "pin interrupt, raise -> handler, across the mesh", "cycles",
             None, "2.5", kind="bound", bound=ipi,
             note="published only as 'more' than the same tile's %g" % ipi),
        _row("irq.pin_write_raise.same_tile", "interrupts",
             "MPB line write + pin raise (sender), same tile",
             "cycles", None, "-", kind="info",
             note="the HAL's two calls: hardware cost only"),
        _row("irq.write_mpb_raise_pin.kernel", "interrupts",
             "kernel path: write the MPB and raise the pin (sender)",
             "cycles", _pub("irq.write_mpb_raise_pin"), "2.5", kind="not_hal",
             note="measured inside system software (%g with the system "
             "call); the mbox suite compares rck_mbox_send with it"
             % _pub("irq.kernel_send")),
        _row("irq.pin_write_raise.mesh", "interrupts",
             "MPB line write + pin raise (sender), across the mesh",
             "cycles", None, "-", kind="info"),
        _row("irq.kernel_send", "interrupts",
             "kernel-level send (system call, MPB write, raise pin)",
             "cycles", _pub("irq.kernel_send"), "2.5", kind="not_hal"),
        _row("local.thread_switch", "interrupts",
             "thread switch, round trip", "cycles",
             _pub("thread_switch_round_trip"), "2.5",
             kind="not_hal"),
    ]


def calibration_catalogue():
    """Every row of the calibration table, in order: what is measured, its
    published value and source section. kind is "measure" (compared within
    5%), "bound" (published only as a lower bound: {"bound": value}),
    "info" (a HAL operation with no published figure) or "not_hal" (a
    published operation the HAL cannot express)."""
    rows = []
    for what, table, series, label in (
            ("mpb_write", MPB_WRITE_TABLE, MPB_WRITE_BY_HOPS,
             "MPB 32-byte line write"),
            ("mpb_read", MPB_READ_TABLE, MPB_READ_BY_HOPS,
             "MPB DWORD read (line into L1)")):
        for y in range(MESH_Y):
            for x in range(MESH_X):
                h = tile_hops(x, y)
                rows.append(_row(
                    "%s.x%dy%d" % (what, x, y), "MPB", "%s, tile (%d,%d), "
                    "%d hop%s" % (label, x, y, h, "" if h == 1 else "s"),
                    "cycles", series[h], "2.1 (by hops)", hops=h,
                    table=table[y][x], series_name=what))
    names = {"dram_read": "DRAM DWORD read, uncached",
             "dram_write_uc": "DRAM line write, uncached (8 DWORD writes)",
             "dram_write_mpbt": "DRAM line write, MPBT (one 32-byte write)"}
    for what in ("dram_read", "dram_write_uc", "dram_write_mpbt"):
        for mc in range(4):
            h = DRAM_BY_MC["hops"][mc]
            rows.append(_row("%s.mc%d" % (what, mc), "DRAM",
                             "%s, MC%d (%d hops)" % (names[what], mc, h),
                             "cycles", DRAM_BY_MC[what][mc], "2.2", hops=h,
                             mc=mc))
    for mapping in ("l2hit", "l2miss", "uncached", "mpbt"):
        for d in ("read", "write"):
            rows.append(_row(
                "bw.%s.%s" % (mapping, d), "bandwidth",
                "one-core %s bandwidth, %s" % (d, _MAPPING_NAMES[mapping]),
                "MiB/s", BANDWIDTH[(mapping, d)], "2.3",
                note="published as 'up to'"))
    rows += [
        _row("local.rdtsc", "local", "RDTSC (two consecutive clock reads)",
             "cycles", _pub("local.rdtsc"), "2.4"),
        _row("local.cl1invmb", "local", "CL1INVMB", "cycles",
             _pub("local.cl1invmb"), "2.4"),
        _row("local.dcache_flush", "local",
             "L2 full flush (software, dcache_flush)", "cycles",
             _pub("l2.full_flush"),
             "1", note="published as 'about'"),
        _row("local.null_syscall", "local", "null system call", "cycles",
             _pub("local.null_syscall"), "2.4", kind="not_hal"),
        _row("local.xchg", "local", "XCHG", "cycles", _pub("local.xchg"), "2.4",
             kind="not_hal"),
        _row("local.lock_cmpxchg", "local", "LOCK CMPXCHG", "cycles",
             _pub("local.lock_cmpxchg"),
             "2.4", kind="not_hal"),
        _row("local.lock_dec", "local", "LOCK DEC", "cycles",
             _pub("local.lock_dec"), "2.4",
             kind="not_hal"),
        _row("local.nop", "local", "NOP", "cycles", _pub("local.nop"), "2.4",
             kind="not_hal"),
        _row("local.l2_flush_line_clean", "local",
             "L2 flush of one clean line (kernel module)", "cycles",
             _pub("l2.flush_line_clean"),
             "1", kind="not_hal"),
        _row("local.l2_flush_line_dirty", "local",
             "L2 flush of one dirty line (kernel module)", "cycles",
             _pub("l2.flush_line_dirty"),
             "1", kind="not_hal"),
        _row("local.l1_hit", "local", "MPB DWORD read, L1 hit", "cycles",
             None, "-", kind="info"),
        _row("local.tas_read", "local", "TAS register read, own core",
             "cycles", None, "-", kind="info"),
        _row("local.tas_write", "local", "TAS register write, own core",
             "cycles", None, "-", kind="info"),
        _row("local.gtsc_read", "local", "global timestamp counter read",
             "cycles", None, "-", kind="info"),
        _row("local.atomic_inc", "local", "GIC atomic counter increment",
             "cycles", None, "-", kind="info"),
        _row("local.atomic_read", "local", "GIC atomic counter read",
             "cycles", None, "-", kind="info"),
        _row("local.lut_read", "local", "LUT entry read, own core",
             "cycles", None, "-", kind="info"),
        _row("local.freq_get", "local", "frequency divider read, own tile",
             "cycles", None, "-", kind="info"),
        _row("local.perfctr_read", "local", "performance counter read",
             "cycles", None, "-", kind="info"),
        _row("local.console_write", "local",
             "console write (the model charges a null system call)",
             "cycles", None, "-", kind="info"),
    ] + _irq_rows()
    return rows


# ---------------------------------------------------------------------------
# bench/sim_calib.c's output.

_CALIB_FIELDS = {
    "id": str, "cycles": float, "bytes": int, "hops": int, "core": int,
    "mc": int, "map": str, "unsupported": str, "error": str,
    "core_mhz": float, "ncores": int, "nmc": int, "shm_bytes": int,
    "set_map": str,
}
_UE_PREFIX = re.compile(r"^\[\s*\d+\]\s?")


def parse_calib_output(text, source=None):
    """sim_calib's stdout -> {"info": {...}, "rows": {id: {field: value}}}.

    Every line but comments must be ``id=... key=value ...`` with known
    keys; a measurement has exactly one of cycles, unsupported, error.
    Raises BenchParseError on anything else, a repeated id, or a missing
    info line."""
    info = None
    rows = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _UE_PREFIX.sub("", raw.strip(), count=1).strip()
        if not line or line.startswith("#"):
            continue
        d = {}
        for tok in line.split():
            key, sep, value = tok.partition("=")
            if not sep or not key or not value:
                raise BenchParseError("token %r is not key=value" % tok,
                                      line, lineno, source)
            if key not in _CALIB_FIELDS:
                raise BenchParseError("unknown field %r" % key, line, lineno,
                                      source)
            if key in d:
                raise BenchParseError("field %r given twice" % key, line,
                                      lineno, source)
            conv = _CALIB_FIELDS[key]
            try:
                d[key] = conv(value)
            except ValueError:
                raise BenchParseError("field %s=%r is not a valid %s"
                                      % (key, value, conv.__name__), line,
                                      lineno, source) from None
            if conv is float and not math.isfinite(d[key]):
                raise BenchParseError("field %s=%r is not finite"
                                      % (key, value), line, lineno, source)
        if "id" not in d:
            raise BenchParseError("no id", line, lineno, source)
        if d["id"] == "info":
            if info is not None:
                raise BenchParseError("info line given twice", line, lineno,
                                      source)
            if "core_mhz" not in d or d["core_mhz"] <= 0:
                raise BenchParseError("info line without core_mhz", line,
                                      lineno, source)
            info = d
            continue
        outcomes = [k for k in ("cycles", "unsupported", "error") if k in d]
        if len(outcomes) != 1:
            raise BenchParseError("a row needs exactly one of cycles, "
                                  "unsupported, error", line, lineno, source)
        if d["id"] in rows:
            raise BenchParseError("row %r given twice" % d["id"], line,
                                  lineno, source)
        rows[d["id"]] = d
    if info is None:
        raise BenchParseError("no info line (id=info core_mhz=...)",
                              source=source)
    return {"info": info, "rows": rows}


def calibration_outputs_equal(a, b):
    """True if two parsed sim_calib outputs give the same rows (the
    determinism check of the `none` compute model)."""
    return a["rows"] == b["rows"]


def bandwidth_mib_s(nbytes, cycles, core_mhz=CORE_MHZ):
    """Bytes moved in cycles of a core_mhz clock -> MiB/s (None if the
    cycles are not positive)."""
    if cycles is None or cycles <= 0:
        return None
    return nbytes / float(1 << 20) / (cycles / (core_mhz * 1e6))


def evaluate_calibration(parsed, tol=TOLERANCE):
    """Compares a parsed sim_calib output with the published values.

    [in] parsed: parse_calib_output()'s result, or None if the program did
         not run (every measurable row is then "not measured").
    Returns the catalogue rows (in order) with modelled, ratio, status and
    note filled in; rows the program printed that the catalogue does not
    know are appended as "no published figure"."""
    info = parsed["info"] if parsed else {}
    got = parsed["rows"] if parsed else {}
    mhz = info.get("core_mhz", CORE_MHZ)
    out = []
    known = set()
    for cat in calibration_catalogue():
        r = dict(cat)
        known.add(r["id"])
        r["modelled"] = None
        r["ratio"] = None
        notes = [r["note"]] if r["note"] else []
        m = got.get(r["id"])
        if r["kind"] == "not_hal":
            r["status"] = NOT_HAL
        elif m is None:
            r["status"] = NOT_MEASURED
        elif "unsupported" in m:
            r["status"] = NOT_MODELLED
            notes.append("%s returns RCK_ERR_UNSUPPORTED" % m["unsupported"])
        elif "error" in m:
            r["status"] = ERROR
            notes.append(m["error"])
        else:
            if r["unit"] == "MiB/s":
                r["modelled"] = bandwidth_mib_s(m.get("bytes", 0),
                                                m["cycles"], mhz)
                r["cycles"] = m["cycles"]
                r["bytes"] = m.get("bytes")
            else:
                r["modelled"] = m["cycles"]
            if m.get("map") == "default":
                notes.append("default mapping (uncached; 16 MiB page k "
                             "on MCk): shm_set_map not modelled yet")
            if "hops" in m and "hops" in r and m["hops"] != r["hops"]:
                notes.append("program says %d hops" % m["hops"])
            if r["kind"] == "measure":
                r["ratio"] = ratio_to_published(r["modelled"], r["published"])
                r["status"] = PASS if within(r["ratio"], tol) else FAIL
            elif r["kind"] == "bound":
                r["ratio"] = report.ratio(r["modelled"], r["bound"])
                r["status"] = (BOUND_OK if r["modelled"] is not None and
                               r["modelled"] > r["bound"] else BOUND_FAIL)
            else:
                r["status"] = NO_FIGURE
        r["note"] = "; ".join(notes)
        r["published_text"] = (published_text(r["published"])
                               if r["kind"] != "bound"
                               else "> %s" % published_text(r["bound"]))
        out.append(r)
    for rid in sorted(set(got) - known):
        m = got[rid]
        r = _row(rid, "other", rid, "cycles", None, "-", kind="info")
        r["modelled"] = m.get("cycles")
        r["ratio"] = None
        r["status"] = NO_FIGURE if "cycles" in m else (
            NOT_MODELLED if "unsupported" in m else ERROR)
        r["published_text"] = "-"
        out.append(r)
    return out


def calibration_summary(rows, tol=TOLERANCE):
    """Counts of an evaluate_calibration() result, and the summary line."""
    def count(*statuses):
        return sum(1 for r in rows if r["status"] in statuses)

    compared = count(PASS, FAIL)
    s = {
        "compared": compared, "within": count(PASS), "failed": count(FAIL),
        "published_rows": sum(1 for r in rows if r["kind"] == "measure"),
        "bounds": count(BOUND_OK, BOUND_FAIL), "bounds_ok": count(BOUND_OK),
        "not_modelled": count(NOT_MODELLED), "not_hal": count(NOT_HAL),
        "no_figure": count(NO_FIGURE), "errors": count(ERROR),
        "not_measured": count(NOT_MEASURED), "tolerance": tol,
    }
    s["text"] = (
        "%d of %d modelled rows within %d%% of the published value "
        "(%d of %d rows with a published figure; %d FAIL); lower bounds "
        "respected: %d of %d; not modelled yet: %d; not HAL operations: %d; "
        "no published figure: %d; errors: %d; not measured: %d"
        % (s["within"], compared, round(tol * 100), s["within"],
           s["published_rows"], s["failed"], s["bounds_ok"], s["bounds"],
           s["not_modelled"], s["not_hal"], s["no_figure"], s["errors"],
           s["not_measured"]))
    return s


def _fmt_ratio(r):
    return "-" if r is None else "%.3f" % r


def calibration_table(rows):
    """The calibration table as text: one line per row (name, published
    value and its section, modelled value, ratio, status, note)."""
    headers = ["benchmark", "unit", "published", "source\n(section)",
               "modelled", "ratio", "status", "note"]
    body = []
    for r in rows:
        src = ("SCC-HARDWARE.md %s" % r["section"]
               if r["section"] != "-" else "-")
        body.append([r["name"], r["unit"], r["published_text"], src,
                     report.format_value(r["modelled"]),
                     _fmt_ratio(r["ratio"]), r["status"], r["note"]])
    return report.format_table(headers, body,
                               ["<", "<", ">", "<", ">", ">", "<", "<"])


# ---------------------------------------------------------------------------
# sim-speed.

def bench_warmup_reps(reps):
    """Warm-up repetitions of the pingpong and barrier programs (mirrors
    bench_warmup_reps() in bench/bench_common.h)."""
    return max(2, reps // 10)


def pingpong_messages(reps):
    """Messages of one pingpong run of one size: a round trip is two, plus
    the warm-up."""
    return 2 * (reps + bench_warmup_reps(reps))


# The sim-speed benchmarks. prog: key of the program in the driver; args:
# program arguments (full run, quick run); target: host time / chip time
# the issue asks for (None: just report); op: what hand-overs are counted
# per; model_unit: the program's own figure in virtual time (one-way
# latency, time per iteration, time per barrier).
SPEED_BENCHES = [
    {"key": "pingpong_32B", "label": "RCCE pingpong 32 B", "prog":
     "pingpong", "nues": 2,
     "args": ["-m", "32", "-s", "32", "-r", "0.1", "-w"],
     "quick_args": ["-m", "32", "-s", "32", "-r", "0.02", "-w"],
     "target": 10.0, "op": "message", "model_unit": "us one-way"},
    {"key": "pingpong_1MiB", "label": "RCCE pingpong 1 MiB", "prog":
     "pingpong", "nues": 2,
     "args": ["-m", "1M", "-s", "1M", "-r", "0.25", "-w"],
     "quick_args": ["-m", "1M", "-s", "1M", "-r", "0.1", "-w"],
     "target": None, "op": "message", "model_unit": "us one-way"},
    {"key": "stencil_48", "label": "stencil, 48 cores (defaults)", "prog":
     "stencil", "nues": 48, "args": [],
     "quick_args": ["-i", "100"], "quick_label":
     "stencil, 48 cores (100 iterations)", "target": 3.0, "op": "iteration",
     "model_unit": "ms/iteration"},
    {"key": "barrier_48", "label": "RCCE barrier, 48 cores", "prog":
     "barrier", "nues": 48, "args": ["-n", "500", "-w"],
     "quick_args": ["-n", "100", "-w"], "target": None, "op": "barrier",
     "model_unit": "us/barrier"},
]


def speed_benches(quick=False):
    """SPEED_BENCHES with "argv" set to the full or the quick arguments
    (and the label to the quick one where the run differs in kind)."""
    out = []
    for b in SPEED_BENCHES:
        d = dict(b)
        d["argv"] = list(b["quick_args"] if quick else b["args"])
        if quick and b.get("quick_label"):
            d["label"] = b["quick_label"]
        out.append(d)
    return out


_HANDOVER_KEYS = ("handovers", "total_handovers", "handovers_total")


def parse_sim_report(doc):
    """The figures sim-speed needs from a sim JSON report (a dict).

    Returns {simulated_seconds, simulated_cycles, handovers,
    handovers_source, ended, compute_model, nues}. handovers is the report's
    total if it has one (a top-level "handovers"-like key, a number or a
    dict with "total"), else the sum of the cores' "handovers", else None.
    Raises BenchParseError if the report is not a sim report."""
    if not isinstance(doc, dict) or "rockcreek_sim_report" not in doc:
        raise BenchParseError("not a rockcreek sim report")
    try:
        secs = float(doc["simulated_seconds"])
        cycles = int(doc["simulated_cycles"])
    except (KeyError, TypeError, ValueError):
        raise BenchParseError("sim report without simulated_seconds/"
                              "simulated_cycles") from None
    hand, src = None, None
    for k in _HANDOVER_KEYS:
        v = doc.get(k)
        if isinstance(v, dict):
            v = v.get("total")
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            hand, src = int(v), "report total (%s)" % k
            break
    if hand is None:
        cores = doc.get("cores")
        if isinstance(cores, list) and cores and all(
                isinstance(c, dict) and "handovers" in c for c in cores):
            hand = sum(int(c["handovers"]) for c in cores)
            src = "sum of the cores' handovers"
    cm = doc.get("compute_model")
    return {"simulated_seconds": secs, "simulated_cycles": cycles,
            "handovers": hand, "handovers_source": src,
            "ended": doc.get("ended"),
            "compute_model": cm.get("name") if isinstance(cm, dict) else cm,
            "nues": doc.get("nues")}


_SUMMARY_HOST = re.compile(r"in ([0-9.eE+-]+) s of host time")
_SUMMARY_HAND = re.compile(r"(\d+) hand-overs")


def parse_sim_summary(text):
    """The sim's stderr summary -> {"host_s": float or None,
    "handovers": int or None}."""
    host = hand = None
    for line in text.splitlines():
        if "rck sim:" not in line:
            continue
        m = _SUMMARY_HOST.search(line)
        if m:
            try:
                host = float(m.group(1))
            except ValueError:
                pass
        m = _SUMMARY_HAND.search(line)
        if m:
            hand = int(m.group(1))
    return {"host_s": host, "handovers": hand}


_STENCIL_DONE = re.compile(r"stencil: done: iterations\s+(\d+)")
_STENCIL_SUM = re.compile(r"stencil: checksum\s+(\S+)")
_STENCIL_TIME = re.compile(r"stencil: time\s+([0-9.eE+-]+) s")


def parse_stencil_output(text, source=None):
    """examples/stencil's stdout -> {"iterations", "checksum", "time_s"}
    (time_s: the program's own RCCE_wtime figure, None if absent). Raises
    BenchParseError without the 'done' and checksum lines."""
    it = cs = ts = None
    for raw in text.splitlines():
        line = _UE_PREFIX.sub("", raw.strip(), count=1)
        m = _STENCIL_DONE.search(line)
        if m:
            it = int(m.group(1))
        m = _STENCIL_SUM.search(line)
        if m:
            try:
                cs = float(m.group(1))
            except ValueError:
                raise BenchParseError("bad checksum", line,
                                      source=source) from None
        m = _STENCIL_TIME.search(line)
        if m:
            ts = float(m.group(1))
    if it is None or cs is None:
        raise BenchParseError("no 'stencil: done: iterations' and checksum "
                              "lines", source=source)
    return {"iterations": it, "checksum": cs, "time_s": ts}


def speed_point(host_s, rep, ops):
    """One round of one benchmark.

    [in] host_s: host wall time of the whole `rck run` (launch included).
    [in] rep: parse_sim_report()'s result.
    [in] ops: operations of the run hand-overs are counted per (messages,
         iterations, barriers), or None.
    Returns {host_s, chip_s, ratio (host / chip), cycles_per_host_s,
    handovers, handovers_per_op}."""
    chip = rep["simulated_seconds"]
    hand = rep.get("handovers")
    return {
        "host_s": host_s, "chip_s": chip,
        "ratio": report.ratio(host_s, chip),
        "cycles_per_host_s": report.ratio(rep["simulated_cycles"], host_s),
        "handovers": hand,
        "handovers_per_op": (report.ratio(hand, ops)
                             if hand is not None and ops else None),
        "ops": ops,
    }


SPEED_METRICS = ["host_s", "chip_s", "ratio", "cycles_per_host_s",
                 "handovers", "handovers_per_op", "model_value"]


def aggregate_speed(points):
    """Per metric, report.aggregate() over the rounds that have it.
    points: list of speed_point() dicts (possibly with model_value)."""
    out = {}
    for m in SPEED_METRICS:
        vals = [p[m] for p in points if p.get(m) is not None]
        if vals:
            out[m] = report.aggregate(vals)
    return out


def speed_verdicts(benches, summary):
    """A report.Verdict per benchmark with a target: median host time /
    chip time <= target. summary: {key: aggregate_speed(...)}."""
    out = []
    for b in benches:
        if b.get("target") is None:
            continue
        target = "sim %s: host time / chip time <= %gx" % (b["label"],
                                                          b["target"])
        agg = summary.get(b["key"], {}).get("ratio")
        if not agg:
            out.append(report.Verdict(target, "NOT EVALUATED",
                                      "no successful round"))
            continue
        med, best = agg["median"], agg["min"]
        status = "MET" if med <= b["target"] else "NOT MET"
        out.append(report.Verdict(
            target, status, "median %.2fx, best %.2fx over %d round(s)"
            % (med, best, agg["n"]),
            [{"key": b["key"], "median": med, "min": best,
              "target": b["target"]}]))
    return out


def speed_table(benches, summary):
    """The sim-speed table: per benchmark the medians (and minima) of host
    time, chip time, their ratio with the target and verdict, simulated
    cycles per host second and hand-overs per operation."""
    headers = ["benchmark", "host s\nmedian", "host s\nmin", "chip s\nmedian",
               "host/chip\nmedian", "host/chip\nmin", "target", "verdict",
               "Mcycles per\nhost s", "hand-overs\nper op", "per", "model\nfigure"]
    body = []
    for b in benches:
        s = summary.get(b["key"], {})

        def g(metric, stat="median", scale=1.0, fmt=report.format_value):
            a = s.get(metric)
            return fmt(a[stat] * scale) if a else "-"

        r = s.get("ratio")
        if b.get("target") is None:
            tgt, verdict = "-", "no target"
        elif not r:
            tgt, verdict = "<= %gx" % b["target"], "NOT EVALUATED"
        else:
            tgt = "<= %gx" % b["target"]
            verdict = "MET" if r["median"] <= b["target"] else "NOT MET"
        body.append([b["label"], g("host_s"), g("host_s", "min"),
                     g("chip_s"), g("ratio"), g("ratio", "min"), tgt,
                     verdict, g("cycles_per_host_s", scale=1e-6),
                     g("handovers_per_op"), b["op"],
                     (g("model_value") + " " + b.get("model_unit", ""))
                     if s.get("model_value") else "-"])
    return report.format_table(headers, body)
