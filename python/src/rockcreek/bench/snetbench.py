"""The `snet` suite (docs/SNET.md): librcksnet's per-record cost on one
core. bench/snet_bench runs a 10-box pipeline, a 48-way index split (farm)
and a serial replication of ten stages on records of 8 B to 1 MiB, beside
hand-written C loops doing the same box calls (loop10 for the pipeline and
the star, loop1 for the farm); the overhead is the difference per record.
threads10 is the design the runtime did not take (a thread per entity,
bounded streams between them), measured on the same work.

The pure functions (parse, summarize, rows_of, table) are apart from the
process handling so they can be tested without running anything.
"""

import os

from . import loadbench, report, snetdistbench

NETS = [("pipeline10", "loop10"), ("farm48", "loop1"), ("star10", "loop10"),
        ("threads10", "loop10")]


def plan(quick):
    """Rounds and the record-count scale (snet_bench -r)."""
    return {"rounds": 2 if quick else 5, "scale": 0.1 if quick else 0.5,
            "max_size": 65536 if quick else 1 << 20}


def parse(text, source=None):
    """snet_bench's lines -> [{net, size, records, us_per_record,
    records_per_s}]. Raises report.BenchParseError on a malformed line."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        try:
            out.append({"net": kv["net"], "size": int(kv["size"]),
                        "records": int(kv["records"]),
                        "us_per_record": float(kv["us_per_record"]),
                        "records_per_s": float(kv["records_per_s"])})
        except (KeyError, ValueError):
            raise report.BenchParseError("bad snet_bench line: %r" % line,
                                         source=source)
    if not out:
        raise report.BenchParseError("no snet_bench result lines",
                                     source=source)
    return out


def summarize(runs):
    """runs: [{"ok", "results"}] -> {(net, size): aggregate of
    us_per_record}."""
    flat = []
    for r in runs:
        for x in r.get("results") or [] if r.get("ok") else []:
            flat.append({"config": (x["net"], x["size"]), "ok": True,
                         "lat_us": x["us_per_record"]})
    return loadbench.summarize(flat)


def sizes_of(summary):
    return sorted({size for (_, size) in summary})


def rows_of(summary):
    """CSV rows: per network and size, us per record (ours) against the
    hand-written loop (ref)."""
    rows = []
    for net, loop in NETS:
        for size in sizes_of(summary):
            ours, ref = summary.get((net, size)), summary.get((loop, size))
            if ours is None:
                continue
            rows.append({
                "suite": "snet", "metric": "us_per_record", "unit": "us",
                "point": "%s %d" % (net, size), "lower_is_better": 1,
                "ours": "librcksnet %s, one core" % net,
                "ours_median": ours["median"], "ours_min": ours["min"],
                "ours_max": ours["max"], "ours_n": ours["n"],
                "ref": "hand-written C loop (%s)" % loop if ref else "",
                "ref_median": ref["median"] if ref else None,
                "ratio_median": report.ratio(ours["median"], ref["median"])
                if ref else None,
                "status": "",
                "note": "overhead %.3g us per record, %.0f records/s"
                % (ours["median"] - ref["median"], 1e6 / ours["median"])
                if ref else ""})
    return rows


def table(summary):
    out = []
    for net, loop in NETS:
        for size in sizes_of(summary):
            ours, ref = summary.get((net, size)), summary.get((loop, size))
            if ours is None or ref is None:
                continue
            out.append([net, str(size), report.format_value(ours["median"]),
                        "%.0f" % (1e6 / ours["median"]),
                        report.format_value(ref["median"]),
                        report.format_value(ours["median"] - ref["median"])])
    return ("snet: per-record cost on one core (us per record, medians), "
            "network beside the hand-written loop\n"
            + report.format_table(["network", "bytes", "us/record",
                                   "records/s", "C loop us", "overhead us"],
                                  out))


def suite(ctx, run):
    """run: the rockcreek.bench.run module (Impl helpers, SuiteResult)."""
    a = ctx.args
    p = plan(a.quick)
    impl = run.make_native(a, {"snet": os.path.join(
        a.build_dir, "bench", "snet_bench")})
    runs = []
    if not impl.has("snet"):
        run._not_run(ctx, "snet", impl.reason)
    else:
        args = ["--", "-s", str(p["max_size"]), "-r", repr(p["scale"])]
        for rnd in range(1, p["rounds"] + 1):
            if ctx.gave_up(impl, "snet"):
                break
            runs.append(ctx.run_bench(impl, "snet", "snet", 1, args, rnd,
                                      parse, rounds=p["rounds"]))
    summary = summarize(runs)
    # across the chip: the distribution layers side by side (snetdistbench)
    dres, derr = snetdistbench.run_all(a.build_dir, ["native", "sim"],
                                       a.quick, 1 if a.quick else 3)
    dsum = snetdistbench.summarize(dres)
    # cores in parallel: the farm's speed-up at 1/2/4/8 UEs
    spts, serr = snetdistbench.run_speedup(a.build_dir, ["sim", "native"])
    # and a pipeline's: pipe8 and pipe48 on the sim, asynchronous calls on/off
    ppts, perr = snetdistbench.run_pipes(a.build_dir)
    derr = derr + serr + perr
    data = {"params": p, "runs": runs,
            "summary": {"%s_%d" % k: v for k, v in summary.items()},
            "dist": {"results": dres, "errors": derr,
                     "summary": {"%s_%s_%s_%d" % k: v
                                 for k, v in dsum.items()}},
            "speedup": {"%s_%d" % k: v for k, v in spts.items()},
            "pipeline": {"%s_%d_%s" % k: v for k, v in ppts.items()}}
    tables = [table(summary)]
    if dsum:
        tables.append(snetdistbench.table(dsum))
    if spts:
        tables.append(snetdistbench.speedup_table(spts))
    if ppts:
        tables.append(snetdistbench.pipe_table(ppts))
    tables.extend("snet across the chip: %s" % e for e in derr)
    plots = [("snet_pingpong_%s.png" % b,
              lambda path, b=b: snetdistbench.plot_pingpong(dsum, b, path))
             for b in snetdistbench.backends_of(dsum)]
    return run.SuiteResult("snet", data, tables, [],
                           rows_of(summary) + snetdistbench.rows_of(dsum)
                           + snetdistbench.speedup_rows(spts)
                           + snetdistbench.pipe_rows(ppts),
                           plots)
