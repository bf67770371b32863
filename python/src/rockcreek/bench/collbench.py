"""Pure functions of the `ircce` and `collectives` suites: parsing
coll_bench / mpi_coll output, aggregating rounds, cycle conversion, ratio
tables. No I/O, no processes (tested in python/tests/test_collbench.py)."""

from .. import published
from . import report

# the core clock the sim reports cycles of: the default chip's (its chip
# file), never written down here
CORE_MHZ = published.chip_core_mhz()

IRCCE_MODES = ["rcce", "isend", "ssend"]
IRCCE_LABELS = {"rcce": "RCCE send/recv",
                "isend": "iRCCE isend/irecv+wait",
                "ssend": "iRCCE ssend/srecv"}

# coll_bench's collectives, in its order.
COLLECTIVES = ["bcast", "reduce", "allreduce", "comm_bcast", "comm_reduce",
               "comm_allreduce", "scatter", "gather", "allgather",
               "alltoall", "reduce_scatter"]

COLL_FIELDS = {"ues": int, "size": int, "reps": int, "us_per_call": float}


def mpi_equivalent(coll):
    """The MPI collective a rockcreek one is compared with: RCCE_comm's
    comm_X and RCCE's X both with MPI_X (reduce_scatter with
    MPI_Reduce_scatter_block)."""
    return coll[len("comm_"):] if coll.startswith("comm_") else coll


MPI_NAMES = {"bcast": "MPI_Bcast", "reduce": "MPI_Reduce",
             "allreduce": "MPI_Allreduce", "scatter": "MPI_Scatter",
             "gather": "MPI_Gather", "allgather": "MPI_Allgather",
             "alltoall": "MPI_Alltoall",
             "reduce_scatter": "MPI_Reduce_scatter_block"}


def mpi_name(coll):
    """The MPI function name of an mpi_coll collective name."""
    return MPI_NAMES.get(coll, "MPI_" + coll)


def parse_coll_output(text, source=None):
    """coll_bench / mpi_coll output -> list of {coll, ues, size, reps,
    us_per_call}. Raises report.BenchParseError on a malformed line, a
    repeated (coll, size), or no result at all."""
    results = []
    seen = set()
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = report._UE_PREFIX.sub("", raw.strip(), count=1).strip()
        if not line or line.startswith("#"):
            continue
        tokens = line.split()
        names = [t for t in tokens if t.startswith("coll=")]
        if len(names) != 1 or not names[0][len("coll="):]:
            raise report.BenchParseError("expected one coll=NAME", line,
                                         lineno, source)
        rest = " ".join(t for t in tokens if not t.startswith("coll="))
        try:
            r = report.parse_kv_line(rest, COLL_FIELDS)
        except report.BenchParseError as e:
            raise report.BenchParseError(e.reason, line, lineno,
                                         source) from None
        r["coll"] = names[0][len("coll="):]
        key = (r["coll"], r["size"])
        if key in seen:
            raise report.BenchParseError("%s size %d reported twice" % key,
                                         line, lineno, source)
        seen.add(key)
        results.append(r)
    if not results:
        raise report.BenchParseError("no collective result lines",
                                     source=source)
    return results


def point_key(r):
    """The text key of one collective point: "coll/ues/size"."""
    return "%s/%d/%d" % (r["coll"], r["ues"], r["size"])


def split_key(key):
    coll, ues, size = key.split("/")
    return coll, int(ues), int(size)


def aggregate_coll(rounds):
    """rounds: list (one per round) of lists of parsed results (all the UE
    counts of that round) -> {"coll/ues/size": report.aggregate of
    us_per_call}, ordered by collective, UEs, size."""
    by_key = {}
    for results in rounds:
        for r in results:
            by_key.setdefault(point_key(r), []).append(r["us_per_call"])

    def order(k):
        c, u, s = split_key(k)
        return (COLLECTIVES.index(c) if c in COLLECTIVES else 99, c, u, s)
    return {k: report.aggregate(by_key[k]) for k in sorted(by_key, key=order)}


def us_to_cycles(us, mhz=CORE_MHZ):
    """Microseconds of the chip's clock -> core cycles (None stays None)."""
    return None if us is None else us * mhz


def coll_rows(ours, ref):
    """One row per rockcreek point: {key, coll, ues, size, ours (aggregate),
    mpi_coll, ref (aggregate or None), ratio_median, ratio_min}."""
    rows = []
    for k, o in ours.items():
        coll, ues, size = split_key(k)
        mk = "%s/%d/%d" % (mpi_equivalent(coll), ues, size)
        t = ref.get(mk)
        rows.append({
            "key": k, "coll": coll, "ues": ues, "size": size, "ours": o,
            "mpi_coll": mpi_equivalent(coll), "ref": t,
            "ratio_median": report.ratio(o["median"],
                                         t["median"] if t else None),
            "ratio_min": report.ratio(o["min"], t["min"] if t else None)})
    return rows


def coll_table(rows, title):
    """The native collectives table (microseconds per call)."""
    headers = ["collective", "UEs", "size", "rockcreek\nmedian",
               "rockcreek\nmin", "Open MPI", "Open MPI\nmedian",
               "Open MPI\nmin", "ratio\nmedian", "ratio\nmin"]
    body = []
    for r in rows:
        o, t = r["ours"], r["ref"] or {}
        body.append([r["coll"], str(r["ues"]), report.format_size(r["size"]),
                     report.format_value(o.get("median")),
                     report.format_value(o.get("min")),
                     mpi_name(r["mpi_coll"]) if t else "-",
                     report.format_value(t.get("median")),
                     report.format_value(t.get("min")),
                     report.format_value(r["ratio_median"]),
                     report.format_value(r["ratio_min"])])
    return (title + "\n" + report.format_table(headers, body)
            + "\nratio = rockcreek / Open MPI (below 1: rockcreek faster)")


def sim_coll_rows(points):
    """points: parsed sim results (one run per UE count, -w) -> rows with
    cycles per call and, for RCCE_comm's bcast/reduce/allreduce, the ratio
    RCCE_comm / RCCE of the same (UEs, size)."""
    by_key = {point_key(r): r for r in points}
    rows = []
    for k, r in by_key.items():
        cyc = us_to_cycles(r["us_per_call"])
        base = None
        if r["coll"].startswith("comm_"):
            b = by_key.get("%s/%d/%d" % (r["coll"][5:], r["ues"], r["size"]))
            base = us_to_cycles(b["us_per_call"]) if b else None
        rows.append({"key": k, "coll": r["coll"], "ues": r["ues"],
                     "size": r["size"], "reps": r["reps"], "cycles": cyc,
                     "ratio_vs_rcce": report.ratio(cyc, base)})
    rows.sort(key=lambda x: (COLLECTIVES.index(x["coll"])
                             if x["coll"] in COLLECTIVES else 99,
                             x["coll"], x["ues"], x["size"]))
    return rows


def sim_coll_table(rows, title):
    headers = ["collective", "UEs", "size", "reps", "cycles per call",
               "RCCE_comm /\nRCCE"]
    body = [[r["coll"], str(r["ues"]), report.format_size(r["size"]),
             str(r["reps"]), report.format_value(r["cycles"]),
             report.format_value(r["ratio_vs_rcce"])] for r in rows]
    return title + "\n" + report.format_table(headers, body)


def ircce_rows(by_mode, metric, lower_is_better=True):
    """by_mode: {mode: {size: aggregate}} (aggregates or, for sim, single
    values wrapped as aggregates) -> one row per size: {size, <mode>:
    aggregate, ratio_<mode>: median of mode / median of rcce, best_<mode>:
    ratio of the best rounds (min for latency, max for bandwidth)}."""
    best = "min" if lower_is_better else "max"
    base = by_mode.get("rcce", {})
    sizes = sorted(set().union(*[set(v) for v in by_mode.values()])
                   if by_mode else [])
    rows = []
    for s in sizes:
        row = {"size": s, "metric": metric}
        b = base.get(s) or {}
        for m in IRCCE_MODES:
            a = (by_mode.get(m) or {}).get(s)
            row[m] = a
            if m != "rcce":
                row["ratio_" + m] = report.ratio(
                    a["median"] if a else None, b.get("median"))
                row["best_" + m] = report.ratio(
                    a[best] if a else None, b.get(best))
        rows.append(row)
    return rows


def ircce_table(rows, title, unit, with_best=True):
    headers = ["size"]
    for m in IRCCE_MODES:
        headers.append("%s\nmedian" % m)
        if with_best:
            headers.append("%s\nbest" % m)
    headers += ["isend /\nrcce", "ssend /\nrcce"]
    if with_best:
        headers += ["isend/rcce\nbest", "ssend/rcce\nbest"]
    body = []
    best = "min" if rows and rows[0]["metric"] != "bw_mbs" else "max"
    for r in rows:
        line = [report.format_size(r["size"])]
        for m in IRCCE_MODES:
            a = r.get(m) or {}
            line.append(report.format_value(a.get("median")))
            if with_best:
                line.append(report.format_value(a.get(best)))
        line += [report.format_value(r.get("ratio_isend")),
                 report.format_value(r.get("ratio_ssend"))]
        if with_best:
            line += [report.format_value(r.get("best_isend")),
                     report.format_value(r.get("best_ssend"))]
        body.append(line)
    return "%s [%s]\n%s" % (title, unit, report.format_table(headers, body))


def single(value):
    """One deterministic value as an aggregate (median = min = max)."""
    return None if value is None else {"median": value, "min": value,
                                       "max": value, "n": 1}


def sim_pingpong_cycles(results):
    """Parsed pingpong results of one sim run (-w: RCCE_wtime) -> {size:
    {lat_cycles, bw_mbs}} (one-way latency in core cycles at CORE_MHZ)."""
    return {r["size"]: {"lat_cycles": us_to_cycles(r["lat_us"]),
                        "bw_mbs": r["bw_mbs"]} for r in results}
