"""Pure functions of the suites of the interrupt-driven libraries (no
processes, files or clocks; the plot functions write one PNG each):

* ``svm``: the Laplace solver of the MetalSVM evaluation
  (``apps/laplace``) in its three versions (SVM strong, SVM lazy, iRCCE)
  and two placements of the SVM pages (one memory controller, all four),
  on 1 to 48 cores of the sim backend: the parser of its result line, the
  run plan, time / speedup / ratio-to-iRCCE rows and tables, the checksum
  check, the breakdown of the sim report;
* ``mbox``: mailbox round trips (``bench/mbox/mbox_pingpong``) by hop
  distance, handler-driven and polled, on sim (cycles) and native (us),
  beside the published interrupt costs of the SCC; and the notification
  benchmark ``bench/chan/chan_bench`` (``id=notify.<kind>`` and
  ``id=tput.<kind>.<size>`` lines: polling, ring, tree).

Tested with synthetic data in python/tests/test_svmbench.py.
"""

import math
import re

from .. import published
from . import report
from . import simbench
from .report import BenchParseError

__all__ = [
    "LAPLACE_CONFIGS", "laplace_plan", "laplace_config", "laplace_args",
    "parse_laplace_output", "laplace_config_key", "laplace_rows",
    "laplace_table", "checksum_verdict", "sim_breakdown", "laplace_csv_rows",
    "COMPUTE_GLITCH_CYCLES", "compute_glitch", "mc_spread_notes",
    "PUBLISHED_IRQ", "MBOX_MODES", "KERNEL_PATH", "mbox_plan",
    "parse_mbox_output", "mbox_sim_rows", "mbox_native_rows",
    "mbox_reference_rows", "mbox_sim_table", "mbox_native_table",
    "mbox_reference_table", "mbox_verdict", "CHAN_KINDS", "chan_plan",
    "parse_chan_output", "chan_rows", "chan_best", "chan_notify_table",
    "chan_tput_table", "plot_laplace", "plot_mbox", "plot_chan",
]

_UE_PREFIX = re.compile(r"^\[\s*\d+\]\s?")


def _clean(raw):
    return _UE_PREFIX.sub("", raw.strip(), count=1).strip()


def _number(text):
    """int, then float (finite), else None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _kv_pairs(tokens, line, lineno, source):
    """Yield (key, value) of each key=value token, in order, as it is
    reached; a token that is not key=value, or a key given again, raises
    BenchParseError."""
    seen = set()
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep or not key or not value:
            raise BenchParseError("token %r is not key=value" % tok, line,
                                  lineno, source)
        if key in seen:
            raise BenchParseError("field %r given twice" % key, line, lineno,
                                  source)
        seen.add(key)
        yield key, value


def _parse_fields(tokens, fields, required, line, lineno, source):
    """key=value tokens -> dict, with fields: name -> converter (a
    converter raises ValueError on a bad value). Unknown, repeated, missing
    required fields and non-finite floats raise BenchParseError. Negative
    numbers are allowed (a clock difference may be)."""
    out = {}
    for key, value in _kv_pairs(tokens, line, lineno, source):
        if key not in fields:
            raise BenchParseError("unknown field %r" % key, line, lineno,
                                  source)
        conv = fields[key]
        try:
            v = conv(value)
        except ValueError:
            raise BenchParseError("field %s=%r is not valid" % (key, value),
                                  line, lineno, source) from None
        if isinstance(v, float) and not math.isfinite(v):
            raise BenchParseError("field %s=%r is not finite" % (key, value),
                                  line, lineno, source)
        out[key] = v
    missing = [k for k in required if k not in out]
    if missing:
        raise BenchParseError("missing field(s) %s" % ", ".join(missing),
                              line, lineno, source)
    return out


# ---------------------------------------------------------------------------
# svm: the Laplace solver.

# The versions and placements the suite compares, in table order.
LAPLACE_CONFIGS = [
    {"key": "strong-mc1", "label": "SVM strong, 1 MC", "version": "strong",
     "mcs": 1},
    {"key": "strong-mc4", "label": "SVM strong, 4 MCs", "version": "strong",
     "mcs": 4},
    {"key": "lazy-mc1", "label": "SVM lazy, 1 MC", "version": "lazy",
     "mcs": 1},
    {"key": "lazy-mc4", "label": "SVM lazy, 4 MCs", "version": "lazy",
     "mcs": 4},
    {"key": "ircce", "label": "iRCCE (private memory)", "version": "ircce",
     "mcs": None},
]

# Full and quick runs: core counts, grid, iterations, and the host
# seconds one run may take. Few iterations: every iteration is alike (the
# pages a core touches and the rows it exchanges do not change), and the
# SVM versions are expensive to simulate: under the lazy model every page
# a core touches is read again after every barrier, line by line, each
# line a DRAM transaction booked in the engine's order; the strong model
# moves a boundary page at nearly every access of the boundary rows (up to
# 100 s of host time for 5 iterations of the 1024 x 512 grid on 24 to 48
# cores; 16 minutes for the whole suite at 5 iterations on a busy host).
_PLANS = {
    False: {"cores": [1, 2, 4, 8, 16, 24, 32, 48], "rows": 1024,
            "cols": 512, "iters": 3, "timeout": 150},
    True: {"cores": [1, 8, 48], "rows": 256, "cols": 512, "iters": 2,
           "timeout": 45},
}


def laplace_plan(quick=False, cores=None, rows=None, cols=None, iters=None,
                 timeout=None):
    """The run plan: {"cores": [...], "rows", "cols", "iters", "timeout"}
    of the full or quick run, with any argument given overriding it."""
    p = dict(_PLANS[bool(quick)])
    p["cores"] = list(p["cores"])
    for k, v in (("cores", cores), ("rows", rows), ("cols", cols),
                 ("iters", iters), ("timeout", timeout)):
        if v is not None:
            p[k] = list(v) if k == "cores" else int(v)
    p["cores"] = [n for n in p["cores"] if 1 <= n <= p["rows"] - 2]
    return p


def laplace_config(key):
    """The LAPLACE_CONFIGS entry of @key (KeyError if none)."""
    for c in LAPLACE_CONFIGS:
        if c["key"] == key:
            return c
    raise KeyError(key)


def laplace_args(cfg, plan):
    """Program arguments of one run of configuration @cfg."""
    args = ["-v", cfg["version"], "-r", str(plan["rows"]), "-c",
            str(plan["cols"]), "-i", str(plan["iters"])]
    if cfg["mcs"] is not None:
        args += ["-m", str(cfg["mcs"])]
    return args


def _version(text):
    if text not in ("strong", "lazy", "ircce"):
        raise ValueError(text)
    return text


def _mc(text):
    return None if text == "-" else int(text)


def _nonneg_int(text):
    v = int(text)
    if v < 0:
        raise ValueError(text)
    return v


def _nonneg_float(text):
    v = float(text)
    if v < 0:
        raise ValueError(text)
    return v


LAPLACE_FIELDS = {
    "version": _version, "mc": _mc, "ues": _nonneg_int, "rows": _nonneg_int,
    "cols": _nonneg_int, "iters": _nonneg_int, "barrier": _nonneg_int,
    "time_s": _nonneg_float, "checksum": float, "max_diff": _nonneg_float,
    "faults": _nonneg_int, "soft_faults": _nonneg_int,
}
LAPLACE_REQUIRED = ["version", "mc", "ues", "rows", "cols", "iters",
                    "barrier", "time_s", "checksum"]


def parse_laplace_output(text, source=None):
    """apps/laplace's stdout -> its result dict (the fields of
    LAPLACE_FIELDS; max_diff, faults and soft_faults only if printed).

    Exactly one ``laplace key=value ...`` line is expected; '#' lines and
    blank lines are skipped, a launcher's UE prefix is removed; anything
    else raises BenchParseError."""
    found = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _clean(raw)
        if not line or line.startswith("#"):
            continue
        tokens = line.split()
        if tokens[0] != "laplace":
            raise BenchParseError("not a laplace result line", line, lineno,
                                  source)
        if found is not None:
            raise BenchParseError("a second result line", line, lineno,
                                  source)
        found = _parse_fields(tokens[1:], LAPLACE_FIELDS, LAPLACE_REQUIRED,
                              line, lineno, source)
    if found is None:
        raise BenchParseError("no 'laplace ...' result line", source=source)
    return found


def laplace_config_key(res):
    """The LAPLACE_CONFIGS key of a parsed result ("lazy-mc4", "ircce")."""
    if res["version"] == "ircce":
        return "ircce"
    return "%s-mc%d" % (res["version"], res["mc"])


def sim_breakdown(doc):
    """From a sim JSON report (a dict): the whole run's cycles by category
    as fractions of all cores' cycles, the memory controllers' accesses and
    queue cycles, and the hand-overs. {} for anything that is not there."""
    out = {}
    cats = doc.get("cycles_all_cores") if isinstance(doc, dict) else None
    if isinstance(cats, dict):
        total = sum(v for v in cats.values() if isinstance(v, (int, float)))
        if total > 0:
            out["fractions"] = {k: v / float(total) for k, v in cats.items()
                                if isinstance(v, (int, float))}
    mcs = doc.get("memory_controllers") if isinstance(doc, dict) else None
    if isinstance(mcs, list):
        out["mc_accesses"] = [m.get("accesses") for m in mcs
                              if isinstance(m, dict)]
        tot = sum(a for a in out["mc_accesses"] if isinstance(a, int))
        if tot > 0:
            out["mc_shares"] = [a / float(tot) if isinstance(a, int)
                                else None for a in out["mc_accesses"]]
        out["mc_queue_cycles"] = [m.get("queue_cycles") for m in mcs
                                  if isinstance(m, dict)]
    if isinstance(doc, dict) and isinstance(doc.get("handovers"), int):
        out["handovers"] = doc["handovers"]
    return out


# A core charged at least this much compute in one run (~2^46 cycles, 36
# hours of chip time) met the sim's clock glitch: a 48-bit wrap charges
# about 2^47 cycles at once (seen under SVM page faults).
COMPUTE_GLITCH_CYCLES = 1 << 46


def compute_glitch(doc):
    """A sim report whose compute figures cannot be real: the text naming
    the core(s), or None."""
    bad = []
    for c in (doc.get("cores") or []) if isinstance(doc, dict) else []:
        v = c.get("compute") if isinstance(c, dict) else None
        if isinstance(v, (int, float)) and v >= COMPUTE_GLITCH_CYCLES:
            bad.append("UE %s: %.4g cycles (%.6f x 2^47)"
                       % (c.get("ue"), v, v / float(1 << 47)))
    if not bad:
        return None
    return ("implausible compute charged by the sim's compute model (%s): "
            "the run's times are not usable" % "; ".join(bad))


def laplace_rows(points, configs=None):
    """Table rows from parsed results (one per run; a later duplicate of a
    (configuration, UEs) replaces an earlier one).

    Each row: config, label, ues, time_s, ms_per_iter, speedup (time of the
    same configuration on its fewest cores / this time; base_ues says
    which), efficiency (speedup / (ues / base_ues)), vs_ircce (this time /
    iRCCE's at the same UEs), faults (SVM), faults_per_ue_iter, and the
    optional extras a point carries (host_s, breakdown). Sorted by
    configuration order, then UEs."""
    configs = configs or LAPLACE_CONFIGS
    order = {c["key"]: i for i, c in enumerate(configs)}
    labels = {c["key"]: c["label"] for c in configs}
    by = {}
    for p in points:
        by[(laplace_config_key(p), p["ues"])] = p
    base = {}
    for (k, n), p in by.items():
        if k not in base or n < base[k][0]:
            base[k] = (n, p["time_s"])
    rows = []
    for (k, n), p in sorted(by.items(), key=lambda kv: (
            order.get(kv[0][0], len(order)), kv[0][1])):
        bn, bt = base[k]
        t = p["time_s"]
        speedup = report.ratio(bt, t)
        ir = by.get(("ircce", n))
        faults = p.get("faults")
        soft = p.get("soft_faults")
        per = float(n * p["iters"]) if p["iters"] else None
        rows.append({
            "config": k, "label": labels.get(k, k), "ues": n,
            "rows": p["rows"], "cols": p["cols"], "iters": p["iters"],
            "time_s": t,
            "ms_per_iter": t * 1e3 / p["iters"] if p["iters"] else None,
            "base_ues": bn, "speedup": speedup,
            "efficiency": (speedup / (n / float(bn))
                           if speedup is not None else None),
            "vs_ircce": report.ratio(t, ir["time_s"]) if ir else None,
            "faults": faults,
            "faults_per_ue_iter": (faults / per if faults is not None and
                                   per else None),
            "soft_faults": soft,
            "soft_faults_per_ue_iter": (soft / per if soft is not None and
                                        per else None),
            "checksum": p["checksum"],
            "host_s": p.get("host_s"),
            "breakdown": p.get("breakdown"),
        })
    return rows


def _grid(rows, configs, value, fmt):
    present = [c for c in configs if any(r["config"] == c["key"]
                                         for r in rows)]
    ues = sorted({r["ues"] for r in rows})
    cell = {(r["config"], r["ues"]): r for r in rows}
    body = []
    for n in ues:
        line = [str(n)]
        for c in present:
            r = cell.get((c["key"], n))
            line.append(fmt(value(r)) if r is not None else "-")
        body.append(line)
    headers = ["cores"] + [c["label"].replace(", ", ",\n", 1)
                           for c in present]
    return report.format_table(headers, body)


def _fmt(v, digits=3):
    return "-" if v is None else ("%.*f" % (digits, v))


def laplace_table(rows, configs=None, title="laplace"):
    """The suite's text: chip time per iteration (ms) by cores and
    configuration, the speedups over each configuration's fewest cores,
    the ratios to iRCCE, and the SVM page faults per core and iteration."""
    configs = configs or LAPLACE_CONFIGS
    if not rows:
        return title + ": no results"
    r0 = rows[0]
    head = ("%s [%d x %d grid, %d iterations; chip time of the timed loop "
            "(the slowest UE), sim backend]" % (title, r0["rows"], r0["cols"],
                                                r0["iters"]))
    parts = [
        head + "\nms per iteration (lower is better)\n"
        + _grid(rows, configs, lambda r: r["ms_per_iter"], _fmt),
        "speedup over the same version on its fewest cores (higher is "
        "better)\n" + _grid(rows, configs, lambda r: r["speedup"],
                            lambda v: _fmt(v, 2)),
        "time / iRCCE's time at the same core count (below 1: faster than "
        "iRCCE)\n" + _grid(rows, configs, lambda r: r["vs_ircce"],
                           lambda v: _fmt(v, 2)),
    ]
    if any(r["faults"] is not None for r in rows):
        svm = [c for c in configs if c["version"] != "ircce"]
        parts.append("SVM page faults per core and iteration (strong: "
                     "ownership moves)\n"
                     + _grid([r for r in rows if r["faults"] is not None],
                             svm, lambda r: r["faults_per_ue_iter"],
                             lambda v: _fmt(v, 2)))
    if any(r.get("soft_faults") for r in rows):
        svm = [c for c in configs if c["version"] != "ircce"]
        parts.append("pages (re)read per core and iteration (the sim cost "
                     "model's first touches of a page after a barrier)\n"
                     + _grid([r for r in rows
                              if r.get("soft_faults") is not None],
                             svm, lambda r: r["soft_faults_per_ue_iter"],
                             lambda v: _fmt(v, 1)))
    if any(r.get("breakdown") for r in rows):
        body = []
        for r in rows:
            fr = (r.get("breakdown") or {}).get("fractions")
            if not fr:
                continue
            q = (r.get("breakdown") or {}).get("mc_queue_cycles") or []
            sh = (r.get("breakdown") or {}).get("mc_shares")
            body.append([r["label"], str(r["ues"])] +
                        ["%.1f" % (100 * fr.get(k, 0.0)) for k in
                         ("compute", "mpb", "dram", "wait", "interrupts",
                          "other")] +
                        [report.format_value(sum(x for x in q if x) if q
                                             else None),
                         "/".join("%.0f" % (100 * x) if x is not None
                                  else "-" for x in sh) if sh else "-",
                         report.format_value(r.get("host_s"))])
        if body:
            parts.append(
                "where all cores' cycles went (whole run, % of cycles), "
                "memory-controller queueing, DRAM accesses per controller "
                "and host time\n"
                + report.format_table(
                    ["version", "cores", "compute\n%", "MPB\n%", "DRAM\n%",
                     "wait\n%", "interrupts\n%", "other\n%",
                     "MC queue\ncycles", "accesses %\nMC0/1/2/3",
                     "host\ns"], body))
    return "\n\n".join(parts)


def mc_spread_notes(rows, configs=None, limit=0.9):
    """Notes for runs of a configuration meant to spread its pages over
    every memory controller (mcs 4) whose DRAM accesses went mostly to one
    (more than @limit of them), from the breakdown's mc_shares."""
    configs = configs or LAPLACE_CONFIGS
    spread = {c["key"] for c in configs if c.get("mcs") == 4}
    bad = []
    for r in rows:
        sh = (r.get("breakdown") or {}).get("mc_shares")
        if r["config"] not in spread or not sh:
            continue
        top = max(range(len(sh)), key=lambda i: sh[i] or 0.0)
        if (sh[top] or 0.0) > limit:
            bad.append((r, top, sh[top]))
    if not bad:
        return []
    groups = {}
    for r, top, x in bad:
        groups.setdefault(r["config"], []).append((r["ues"], top, x))
    parts = []
    for k in sorted(groups):
        g = groups[k]
        mcs = sorted({top for _, top, _ in g})
        lo = "%.1f" % (100 * min(x for _, _, x in g))
        hi = "%.1f" % (100 * max(x for _, _, x in g))
        parts.append("%s on %s cores (%s%% of the accesses on MC%s)" % (
            k, ",".join(str(n) for n, _, _ in sorted(g)),
            lo if lo == hi else lo + "-" + hi,
            "/".join(str(m) for m in mcs)))
    return ["placement: runs meant to spread the SVM pages over every "
            "memory controller sent nearly all DRAM accesses to one: %s; "
            "their 1 MC / 4 MCs comparison compares two single "
            "controllers." % "; ".join(parts)]


def checksum_verdict(rows):
    """Target: every run of one grid gives the same checksum (the versions
    compute the same expression on the same operands, whatever the number
    of cores), bit for bit."""
    target = "laplace: identical checksums across versions and core counts"
    groups = {}
    for r in rows:
        groups.setdefault((r["rows"], r["cols"], r["iters"]), []).append(r)
    if sum(len(g) for g in groups.values()) < 2:
        return report.Verdict(target, "NOT EVALUATED",
                              "fewer than two runs")
    bad = []
    for key, g in sorted(groups.items()):
        sums = {r["checksum"] for r in g}
        if len(sums) > 1:
            ref = g[0]["checksum"]
            bad += ["%s on %d cores: %.15e (vs %.15e)"
                    % (r["label"], r["ues"], r["checksum"], ref)
                    for r in g if r["checksum"] != ref]
    n = sum(len(g) for g in groups.values())
    if bad:
        return report.Verdict(target, "NOT MET", "%d of %d runs differ: %s"
                              % (len(bad), n, "; ".join(bad[:3])))
    return report.Verdict(target, "MET", "%d runs, checksum %s" % (
        n, ", ".join("%.12e" % g[0]["checksum"]
                     for _, g in sorted(groups.items()))))


def laplace_csv_rows(rows):
    """Rows of laplace.csv (flat: no breakdown dict)."""
    out = []
    for r in rows:
        d = {k: r.get(k) for k in (
            "config", "label", "ues", "rows", "cols", "iters", "time_s",
            "ms_per_iter", "base_ues", "speedup", "efficiency", "vs_ircce",
            "faults", "faults_per_ue_iter", "soft_faults",
            "soft_faults_per_ue_iter", "checksum", "host_s")}
        fr = (r.get("breakdown") or {}).get("fractions") or {}
        for k in ("compute", "mpb", "dram", "wait", "interrupts"):
            d["frac_" + k] = fr.get(k)
        out.append(d)
    return out


LAPLACE_CSV_FIELDS = ["config", "label", "ues", "rows", "cols", "iters",
                      "time_s", "ms_per_iter", "base_ues", "speedup",
                      "efficiency", "vs_ircce", "faults",
                      "faults_per_ue_iter", "soft_faults",
                      "soft_faults_per_ue_iter", "checksum", "host_s",
                      "frac_compute", "frac_mpb", "frac_dram", "frac_wait",
                      "frac_interrupts"]


# ---------------------------------------------------------------------------
# mbox: mailbox round trips and the published interrupt costs.

# The published interrupt costs (config/published.json, "irq.*";
# SCC-HARDWARE.md 2.5), in core cycles of the published operating point.
PUBLISHED_IRQ = {
    # raise -> handler, one tile, trap incl.
    "ipi_delivery_min": published.value("irq.ipi_delivery_min"),
    # sender: write an MPB line, raise pin
    "write_mpb_and_raise_pin": published.value("irq.write_mpb_raise_pin"),
    "kernel_send_syscall_write_mpb_raise_pin":
        published.value("irq.kernel_send"),
}

MBOX_MODES = ["handler", "polled"]

# Status of a comparison with a published kernel-path figure: shown with
# its ratio, no verdict (sim_calib's calibration calls the same figure
# "not a HAL operation").
KERNEL_PATH = "kernel path: ratio only"

_MBOX_PLANS = {
    # cores 1, 2, 6, 10, 47: 0, 1, 3, 5 and 8 hops from core 0
    False: {"sim_cores": [1, 2, 6, 10, 47], "native_cores": [1, 47],
            "sim_reps": 200, "native_reps": 2000, "native_rounds": 3},
    True: {"sim_cores": [1, 47], "native_cores": [1],
           "sim_reps": 50, "native_reps": 500, "native_rounds": 1},
}


def mbox_plan(quick=False, rounds=None):
    """The mailbox run plan (peer cores on sim and native, repetitions,
    native rounds)."""
    p = dict(_MBOX_PLANS[bool(quick)])
    if rounds is not None:
        p["native_rounds"] = int(rounds)
    return p


def _mode(text):
    if text not in MBOX_MODES:
        raise ValueError(text)
    return text


MBOX_FIELDS = {
    "mode": _mode, "peer_core": _nonneg_int, "hops": _nonneg_int,
    "reps": _nonneg_int, "core_mhz": _nonneg_float,
    "rtt_us": float, "oneway_us": float, "oneway_min_us": float,
    "send_us": float, "rtt_cycles": float, "oneway_cycles": float,
    "oneway_min_cycles": float, "send_cycles": float,
}


def parse_mbox_output(text, source=None):
    """mbox_pingpong's stdout -> list of result dicts (every field of
    MBOX_FIELDS required). Raises BenchParseError on any other line or if
    there is none."""
    out = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _clean(raw)
        if not line or line.startswith("#"):
            continue
        out.append(_parse_fields(line.split(), MBOX_FIELDS,
                                 list(MBOX_FIELDS), line, lineno, source))
    if not out:
        raise BenchParseError("no mbox_pingpong result line", source=source)
    return out


MBOX_METRICS = ["oneway", "oneway_min", "rtt", "send"]


def mbox_sim_rows(points):
    """Sim results (one deterministic run per mode and peer) -> rows
    {mode, hops, peer_core, oneway, oneway_min, rtt, send} in cycles,
    sorted by mode, then hops."""
    by = {}
    for p in points:
        by[(p["mode"], p["hops"], p["peer_core"])] = p
    rows = []
    for (mode, hops, core), p in sorted(by.items(), key=lambda kv: (
            MBOX_MODES.index(kv[0][0]), kv[0][1], kv[0][2])):
        d = {"mode": mode, "hops": hops, "peer_core": core,
             "reps": p["reps"]}
        for m in MBOX_METRICS:
            d[m] = p[m + "_cycles"]
        rows.append(d)
    return rows


def mbox_native_rows(rounds):
    """Native results over rounds (a list, one per round, of lists of
    parsed results) -> rows {mode, hops, peer_core, n, METRIC: aggregate}
    in microseconds (median/min/max/q1/q3 over rounds)."""
    vals = {}
    for results in rounds:
        for p in results:
            key = (p["mode"], p["hops"], p["peer_core"])
            for m in MBOX_METRICS:
                vals.setdefault(key, {}).setdefault(m, []).append(
                    p[m + "_us"])
    rows = []
    for key in sorted(vals, key=lambda k: (MBOX_MODES.index(k[0]), k[1],
                                           k[2])):
        mode, hops, core = key
        d = {"mode": mode, "hops": hops, "peer_core": core}
        for m in MBOX_METRICS:
            d[m] = report.aggregate(vals[key][m])
        d["n"] = d["oneway"]["n"]
        rows.append(d)
    return rows


def mbox_sim_table(rows):
    """Sim cycles by mode and hops."""
    body = [[r["mode"], str(r["hops"]), str(r["peer_core"]),
             report.format_value(r["oneway"]),
             report.format_value(r["rtt"]),
             report.format_value(r["send"])] for r in rows]
    return ("mailbox pingpong (sim, compute none: every cycle is the "
            "model's; core 0 and the peer core only)\n"
            + report.format_table(["mode", "hops", "peer\ncore",
                                   "one-way\ncycles", "round trip\ncycles",
                                   "send call\ncycles"], body)
            + "\none-way: from before UE 0's rck_mbox_send to the mail in "
            "UE 1's hands (handler entry, or rck_mbox_recv's return); "
            "send call: UE 0's rck_mbox_send alone (mailbox empty).")


def mbox_native_table(rows, rounds):
    body = []
    for r in rows:
        body.append([r["mode"], str(r["hops"]), str(r["peer_core"])] +
                    [report.format_value(r[m][s]) for m, s in (
                        ("oneway", "median"), ("oneway", "min"),
                        ("rtt", "median"), ("rtt", "min"),
                        ("send", "median"))])
    return ("mailbox pingpong (native, %d round(s); us)\n" % rounds
            + report.format_table(
                ["mode", "hops", "peer\ncore", "one-way\nmedian",
                 "one-way\nbest", "round trip\nmedian", "round trip\nbest",
                 "send call\nmedian"], body)
            + "\nhops mean nothing on the host (shared memory); they are "
            "printed to show the runs are the sim's.")


def mbox_reference_rows(sim_rows, published=None):
    """Our sim figures beside the published interrupt costs.

    * handler one-way at 0 hops vs ipi_delivery_min (raise -> handler on one
      tile, trap included; published as "at least about", and our one-way
      also contains the send before the raise and the read of the mailbox
      after the trap, so it is a lower bound: BOUND_OK if ours >= it);
    * handler one-way at the farthest peer vs the same (published only as
      "more" across the mesh: a lower bound);
    * the send call at 0 hops vs write_mpb_and_raise_pin (the sender's side
      of a kernel send, measured inside system software: the ratio only,
      status KERNEL_PATH; the library's user-level call has no trap, so
      expect less).
    Returns rows {name, published, ours, ratio, status, note}."""
    pub = dict(PUBLISHED_IRQ)
    pub.update(published or {})
    handler = [r for r in sim_rows if r["mode"] == "handler"]
    near = min(handler, key=lambda r: r["hops"]) if handler else None
    far = max(handler, key=lambda r: r["hops"]) if handler else None
    rows = []

    def bound_row(name, r, note):
        ours = r["oneway"] if r else None
        ratio = report.ratio(ours, pub["ipi_delivery_min"])
        status = (simbench.NOT_MEASURED if ours is None else
                  simbench.BOUND_OK if ours >= pub["ipi_delivery_min"]
                  else simbench.BOUND_FAIL)
        rows.append({"name": name, "published": pub["ipi_delivery_min"],
                     "published_text": ">= %d (ipi_delivery_min)"
                     % pub["ipi_delivery_min"],
                     "ours": ours, "ratio": ratio, "status": status,
                     "hops": r["hops"] if r else None, "note": note})

    bound_row("mail one-way, handler, %s hops" % (near["hops"] if near
                                                  else "0"), near,
              "ours = send + interrupt delivery + reading the mailbox")
    if far is not None and far is not near:
        bound_row("mail one-way, handler, %d hops" % far["hops"], far,
                  "published: 'more' across the mesh")
    send = near["send"] if near else None
    ratio = report.ratio(send, pub["write_mpb_and_raise_pin"])
    rows.append({
        "name": "send call (write the mailbox line, raise GIC), %s hops"
        % (near["hops"] if near else "0"),
        "published": pub["write_mpb_and_raise_pin"],
        "published_text": "%d (write_mpb_and_raise_pin)"
        % pub["write_mpb_and_raise_pin"],
        "ours": send, "ratio": ratio,
        "status": simbench.NOT_MEASURED if send is None else KERNEL_PATH,
        "hops": near["hops"] if near else None,
        "note": "published: the kernel's send path (system software; %g "
        "with the system call); ours: a user-level library call, no trap"
        % pub["kernel_send_syscall_write_mpb_raise_pin"]})
    return rows


def mbox_reference_table(rows):
    body = [[r["name"], r["published_text"], report.format_value(r["ours"]),
             "-" if r["ratio"] is None else "%.3f" % r["ratio"],
             r["status"], r["note"]] for r in rows]
    return ("mailboxes (sim) beside the published SCC interrupt costs "
            "(SCC-HARDWARE.md 2.5; cycles at %g MHz)\n" % simbench.CORE_MHZ
            + report.format_table(["measurement", "published", "ours",
                                   "ratio", "status", "note"], body,
                                  ["<", "<", ">", ">", "<", "<"]))


def mbox_verdict(ref_rows):
    """Target: a handler-driven mail takes at least the published interrupt
    delivery (612 cycles on one tile): the model does not make mails
    cheaper than the chip's interrupts."""
    target = ("mbox: handler one-way >= the published interrupt delivery "
              "(%d cycles)" % PUBLISHED_IRQ["ipi_delivery_min"])
    b = [r for r in ref_rows if r["status"] in (simbench.BOUND_OK,
                                                simbench.BOUND_FAIL)]
    if not b:
        return report.Verdict(target, "NOT EVALUATED", "no sim results")
    bad = [r for r in b if r["status"] == simbench.BOUND_FAIL]
    detail = "; ".join("%s: %s cycles (ratio %.2f)" % (
        r["name"], report.format_value(r["ours"]), r["ratio"]) for r in b)
    return report.Verdict(target, "NOT MET" if bad else "MET", detail)


# ---------------------------------------------------------------------------
# Notification channels (bench/chan/chan_bench.c). Its output contract
# (the comment at the top of the program; keys may be added at the end of
# a line, never removed or renamed):
#   id=info backend=.. core_mhz=.. ue1_core=.. hops=.. reps=.. ...
#   id=notify.<kind> reps= rtt_cycles= oneway_cycles= send_cycles=
#       notify_send_cycles= rx_cycles= notify_rx_cycles= rtt_us= oneway_us=
#       interrupts=
#   id=tput.<kind>.<size> bytes= msgs= cycles_per_msg= us_per_msg= mib_s=
#   id=error what=<text>
# kind: poll | ring | tree.

CHAN_KINDS = ["poll", "ring", "tree"]
NOTIFY_REQUIRED = ["reps", "rtt_cycles", "oneway_cycles", "send_cycles",
                   "notify_send_cycles", "rx_cycles", "notify_rx_cycles"]
TPUT_REQUIRED = ["bytes", "msgs", "cycles_per_msg", "us_per_msg", "mib_s"]

# chan_bench runs on two cores, like mbox_pingpong: the same distances.
_CHAN_PLANS = {
    False: {"sim_cores": [1, 47], "native_cores": [1]},
    True: {"sim_cores": [1, 47], "native_cores": [1]},
}


def chan_plan(quick=False):
    """Peer cores of chan_bench's sim and native runs."""
    return dict(_CHAN_PLANS[bool(quick)])


def _kv_tokens(tokens, line, lineno, source):
    d = {}
    for key, value in _kv_pairs(tokens, line, lineno, source):
        num = _number(value)
        d[key] = num if num is not None else value
    return d


def parse_chan_output(text, source=None):
    """chan_bench's stdout -> {"info": dict or None, "notify": [...],
    "tput": [...]}. Values are int, float or text; a notify line is
    {"kind", fields...}, a tput line {"kind", "size", fields...}. Every
    required field must be there and numeric; other keys are kept. An
    ``id=error`` line, an unknown id, a malformed line or no notify line
    raises BenchParseError."""
    info, notify, tput = None, [], []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _clean(raw)
        if not line or line.startswith("#"):
            continue
        d = _kv_tokens(line.split(), line, lineno, source)
        rid = str(d.get("id", ""))
        if rid == "error":
            raise BenchParseError("chan_bench failed: %s"
                                  % d.get("what", "?"), line, lineno, source)
        if rid == "info":
            info = d
            continue
        if rid.startswith("notify."):
            d["kind"] = rid[len("notify."):]
            need, out = NOTIFY_REQUIRED, notify
        elif rid.startswith("tput."):
            kind, _, size = rid[len("tput."):].partition(".")
            d["kind"], d["size"] = kind, size
            need, out = TPUT_REQUIRED, tput
        else:
            raise BenchParseError("unknown id %r" % rid, line, lineno,
                                  source)
        if not d["kind"]:
            raise BenchParseError("id without a kind", line, lineno, source)
        bad = [k for k in need if not isinstance(d.get(k), (int, float))]
        if bad:
            raise BenchParseError("missing or non-numeric field(s) %s"
                                  % ", ".join(bad), line, lineno, source)
        out.append(d)
    if not notify:
        raise BenchParseError("no id=notify.<kind> lines", source=source)
    return {"info": info, "notify": notify, "tput": tput}


def _kind_order(k):
    return CHAN_KINDS.index(k) if k in CHAN_KINDS else len(CHAN_KINDS)


def chan_rows(runs):
    """Parsed chan_bench outputs (one per run: backend and distance) ->
    (notify rows, tput rows), each row carrying the run's backend and hops
    (from its info line), sorted by backend, hops, kind."""
    nrows, trows = [], []
    for res in runs:
        info = res.get("info") or {}
        base = {"backend": info.get("backend", "?"),
                "hops": info.get("hops"), "peer_core": info.get("ue1_core"),
                "core_mhz": info.get("core_mhz")}
        for p in res["notify"]:
            nrows.append(dict(base, **p))
        for p in res["tput"]:
            trows.append(dict(base, **p))

    def key(r):
        return (str(r["backend"]), r["hops"] if r["hops"] is not None
                else -1, _kind_order(r["kind"]), str(r.get("size", "")))
    return sorted(nrows, key=key), sorted(trows, key=key)


def chan_best(rows, metric, best=min):
    """Rows of several rounds -> one per (backend, hops, kind, size): the
    round with the best @metric (best: min or max), with "n" = rounds."""
    groups = {}
    for r in rows:
        k = (r["backend"], r["hops"], r["kind"], r.get("size"))
        groups.setdefault(k, []).append(r)
    out = []
    for k, g in groups.items():
        pick = best(g, key=lambda r: r[metric])
        out.append(dict(pick, n=len(g)))
    return sorted(out, key=lambda r: (str(r["backend"]), r["hops"]
                                      if r["hops"] is not None else -1,
                                      _kind_order(r["kind"]),
                                      str(r.get("size", ""))))


def chan_notify_table(rows, title="notification cost: ring vs tree vs "
                      "polling (bench/chan/chan_bench)"):
    """One line per (backend, hops, kind): cycles of the one-way latency,
    round trip, send, what notifying adds to the send and to the receive,
    and the interrupts UE 1 took."""
    if not rows:
        return title + ": no results"
    body = []
    for r in rows:
        body.append([str(r["backend"]), "-" if r["hops"] is None
                     else str(r["hops"]), r["kind"]] +
                    [report.format_value(r.get(k)) for k in (
                        "oneway_cycles", "rtt_cycles", "send_cycles",
                        "notify_send_cycles", "rx_cycles",
                        "notify_rx_cycles", "interrupts")])
    return (title + "\n" + report.format_table(
        ["backend", "hops", "kind", "one-way\ncycles", "round trip\ncycles",
         "send\ncycles", "send: notify\nadds", "receive\ncycles",
         "receive:\nnotify adds", "interrupts\n(UE 1)"], body)
        + ("\ncycles at the chip's base clock (native: host time x %g MHz);"
           " 'notify adds' = the kind's figure minus polling's."
           % published.chip_core_mhz()))


def chan_tput_table(rows, title="channel throughput (bench/chan)"):
    if not rows:
        return title + ": no results"
    body = [[str(r["backend"]), "-" if r["hops"] is None else str(r["hops"]),
             r["kind"], str(r["size"]), report.format_value(r["mib_s"]),
             report.format_value(r["us_per_msg"]),
             report.format_value(r["cycles_per_msg"])] for r in rows]
    return title + "\n" + report.format_table(
        ["backend", "hops", "kind", "size", "MiB/s", "us per\nmessage",
         "cycles per\nmessage"], body)


# ---------------------------------------------------------------------------
# Plots (matplotlib is imported only here).

def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(plt, fig, path, note):
    if note:
        fig.text(0.01, 0.01, note, fontsize=8, alpha=0.7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


_MARKERS = ["o", "s", "^", "v", "D", "x"]


def plot_laplace(rows, path, note=None, configs=None):
    """Two panels: chip time per iteration against cores (log-log, one
    line per version and placement), and the speedup (with the ideal)."""
    plt = _pyplot()
    configs = configs or LAPLACE_CONFIGS
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 5))
    allx = []
    for i, c in enumerate(configs):
        pts = sorted((r["ues"], r) for r in rows if r["config"] == c["key"])
        if not pts:
            continue
        xs = [n for n, _ in pts]
        allx += xs
        style = dict(marker=_MARKERS[i % len(_MARKERS)], linewidth=1.5,
                     markersize=4,
                     linestyle="--" if c["version"] == "ircce" else "-")
        a1.plot(xs, [r["ms_per_iter"] for _, r in pts], label=c["label"],
                **style)
        a2.plot(xs, [r["speedup"] for _, r in pts], label=c["label"],
                **style)
    if allx:
        lo, hi = min(allx), max(allx)
        a2.plot([lo, hi], [1.0, hi / float(lo)], color="grey",
                linestyle=":", label="ideal")
    for ax in (a1, a2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("cores")
        ax.grid(True, alpha=0.4)
        if allx:
            ax.set_xticks(sorted(set(allx)))
            ax.set_xticklabels([str(x) for x in sorted(set(allx))])
        ax.legend(fontsize=8)
    a1.set_yscale("log")
    a1.set_ylabel("chip time per iteration, ms (sim)")
    a1.set_title("Laplace: time against cores")
    a2.set_ylabel("speedup over the same version on its fewest cores")
    a2.set_title("Laplace: speedup")
    return _save(plt, fig, path, note)


def _paired_bars(ax, labels, left, right, log, ylabel, title):
    """Two bars for each of labels on ax: left and right are (values,
    legend entry); log: a log scale. No labels: the axes' texts alone."""
    if labels:
        xs = list(range(len(labels)))
        for dx, (values, name) in ((-0.2, left), (0.2, right)):
            ax.bar([x + dx for x in xs], values, width=0.4, label=name)
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, fontsize=7)
        if log:
            ax.set_yscale("log")
        ax.legend(fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.4)


def plot_mbox(sim_rows, native_rows, path, note=None):
    """Left: sim one-way and round-trip cycles against hops, per mode, with
    the published interrupt delivery; right: native one-way and round trip
    (median, best) per mode and peer."""
    plt = _pyplot()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 5))
    for i, mode in enumerate(MBOX_MODES):
        pts = sorted((r["hops"], r) for r in sim_rows if r["mode"] == mode)
        if not pts:
            continue
        xs = [h for h, _ in pts]
        color = ("tab:blue", "tab:orange")[i % 2]
        a1.plot(xs, [r["oneway"] for _, r in pts], marker=_MARKERS[i],
                color=color, label="%s: one-way" % mode)
        a1.plot(xs, [r["rtt"] for _, r in pts], marker=_MARKERS[i],
                color=color, linestyle="--", label="%s: round trip" % mode)
    a1.axhline(PUBLISHED_IRQ["ipi_delivery_min"], color="grey",
               linestyle=":", label="published interrupt delivery (%g)"
               % PUBLISHED_IRQ["ipi_delivery_min"])
    a1.set_xlabel("hops from core 0")
    a1.set_ylabel("cycles at %g MHz (sim)" % published.chip_core_mhz())
    a1.set_title("mailboxes on the sim")
    a1.grid(True, alpha=0.4)
    a1.legend(fontsize=8)
    labels, med, best = [], [], []
    for r in native_rows:
        for m in ("oneway", "rtt"):
            labels.append("%s\n%s\ncore %d" % (r["mode"], m, r["peer_core"]))
            med.append(r[m]["median"])
            best.append(r[m]["min"])
    _paired_bars(a2, labels, (med, "median"), (best, "best round"),
                 bool(med) and max(med) > 20 * max(min(best), 1e-9),
                 "microseconds (native)", "mailboxes on the host")
    return _save(plt, fig, path, note)


def plot_chan(rows, path, note=None):
    """Bars of the notification cost per kind (one-way and round trip,
    cycles), one group per backend and distance."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    labels = ["%s, %s hops\n%s" % (r["backend"], r["hops"], r["kind"])
              for r in rows]
    vals = [r["rtt_cycles"] for r in rows if r["rtt_cycles"] > 0]
    _paired_bars(ax, labels,
                 ([r["oneway_cycles"] for r in rows], "one-way"),
                 ([r["rtt_cycles"] for r in rows], "round trip"),
                 bool(vals) and max(vals) > 30 * min(vals),
                 "cycles at %g MHz" % published.chip_core_mhz(),
                 "notification cost: ring vs tree vs polling")
    return _save(plt, fig, path, note)
