"""The `mpi` suite: rockcreek's MPI library on the MPBs (docs/MPI.md,
docs/MPI-COLLECTIVES.md), program bench/rckmpi/rckmpi_bench.c.

* sim, in core cycles (of the chip's core clock, compute model none): Sendrecv, Gather,
  Scatter, Bcast, Allreduce, Barrier at 3 and 48 processes, 4 B to 256 KiB,
  the two channels side by side (RCK_MPI_CHANNEL=sccmpb, the original, and
  sccmpb-ext, the improved one) and their ratio old/new per row.
* sim, 3 processes: also RCKMPI's shared-DRAM channels (sccshm,
  sccmulti), in core cycles beside the two MPB channels.
* native, large messages in the shape of the OSU micro-benchmarks
  (osu_latency, osu_bw, osu_bibw: ops pingpong, bw, bibw of rckmpi_bench)
  at 16 KiB-4 MiB on 2 processes, for the channels of LARGE_CHANNELS and
  Open MPI in the same interleaved rounds, with each channel's ratio to
  Open MPI (at or above 1: as fast or faster); verdict on the native
  default channel (auto = sccmulti): >= 1.0x at every size.
* native, in microseconds: pingpong latency and bandwidth and the same
  collectives beside Open MPI (the same source built with mpicc.openmpi),
  interleaved rounds, ratio rockcreek / Open MPI; verdict: latency at or
  below Open MPI up to 1 KiB, on the medians and on the rounds' own ratios
  (see paired_ratios: the VM's two vCPUs are near or far from one run to
  the next, so the medians of rockcreek and Open MPI may come from runs in
  different placements, while a round runs the two back to back).
"""
import os

from .. import published
from . import report

CORE_MHZ = published.chip_core_mhz()  # the default chip's (its chip file)
COLLS = ["sendrecv", "gather", "scatter", "bcast", "allreduce", "barrier"]
FIELDS = {"ues": int, "size": int, "reps": int, "us": float}
CHANNELS = ["sccmpb", "sccmpb-ext"]
# the shared-DRAM channels: on the sim at 3 processes (at 48 the sim
# models every access to their uncached rings: minutes per run)
SHM_CHANNELS = ["sccshm", "sccmulti"]
LARGE_SIZES = [16384, 65536, 262144, 1048576, 4194304]
LARGE_OPS = ["pingpong", "bw", "bibw"]
LARGE_CHANNELS = ["sccmpb-ext", "sccmulti", "sccshm"]
LARGE_DEFAULT = "sccmulti"  # RCK_MPI_CHANNEL=auto on native
WINDOW = 64  # messages per bw/bibw window (rckmpi_bench.c, as OSU)


def parse(text, source=None):
    """rckmpi_bench output -> list of {op, ues, size, reps, us}."""
    out = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = report._UE_PREFIX.sub("", raw.strip(), count=1).strip()
        if not line.startswith("op="):
            continue
        tok = line.split()
        r = report.parse_kv_line(" ".join(tok[1:]), FIELDS)
        r["op"] = tok[0][3:]
        out.append(r)
    if not out:
        raise report.BenchParseError("no op= lines", source=source)
    return out


def sizes(quick, n):
    """4 B .. 256 KiB: x4 steps (x16 on 48 processes and in --quick)."""
    step = 16 if quick or n >= 48 else 4
    s, out = 4, []
    while s <= 262144:
        out.append(s)
        s *= step
    if out[-1] != 262144:
        out.append(262144)
    return out


def sim_table(n, by_channel):
    """One row per (op, size): cycles per call on both channels, old/new."""
    old, new = by_channel.get("sccmpb", {}), by_channel.get("sccmpb-ext", {})
    extra = [ch for ch in SHM_CHANNELS if by_channel.get(ch)]
    headers = (["op", "size", "sccmpb\ncycles", "sccmpb-ext\ncycles",
                "old / new"] + ["%s\ncycles" % ch for ch in extra])
    body = []
    for k in sorted(set(old) | set(new),
                    key=lambda k: (COLLS.index(k[0]) if k[0] in COLLS
                                   else -1, k[1])):
        o, w = old.get(k), new.get(k)
        body.append([k[0], report.format_size(k[1]) if k[0] != "barrier"
                     else "-", report.format_value(o), report.format_value(w),
                     report.format_value(report.ratio(o, w))]
                    + [report.format_value(by_channel[ch].get(k))
                       for ch in extra])
    return ("mpi on sim, %d processes (core cycles per call at %g MHz; "
            "old / new above 1: sccmpb-ext faster)\n" % (n, CORE_MHZ)
            + report.format_table(headers, body))


def _run(mod, cmd, env, timeout):
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        rc, out, err, secs = mod.run_process(cmd, timeout)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if rc != 0:
        mod.log("  failed (%s): %s" % (rc, " ".join(cmd)))
        mod.log("  " + (err or "")[-400:])
        return None
    return parse(out, cmd[-1])


def run_sim(ctx, mod, prog, rck):
    """{n: {channel: {(op, size): cycles}}}, raw lines"""
    res, raw = {}, []
    for n in (3, 48):
        for ch in CHANNELS + (SHM_CHANNELS if n == 3 else []):
            s = ",".join(str(x) for x in sizes(ctx.args.quick, n))
            cmd = [rck, "run", "-n", str(n), "--backend", "sim", "--compute",
                   "none", "--no-prefix", "--", prog, "-o",
                   ",".join(COLLS), "-s", s, "-r", "4"]
            mod.log("mpi sim %d processes %s ..." % (n, ch))
            pts = _run(mod, cmd, {"RCK_MPI_CHANNEL": ch,
                                  "RCK_SIM_REPORT": "none",
                                  "RCK_SIM_SUMMARY": "0"}, 600)
            for p in pts or []:
                p["channel"] = ch
                raw.append(p)
                res.setdefault(n, {}).setdefault(ch, {})[
                    (p["op"], p["size"])] = p["us"] * CORE_MHZ
    return res, raw


def run_native(ctx, mod, prog, ref, rck, rounds, pp_rounds):
    """({(impl, op, ues): [(size, us), ...]},
        {(op, ues): [per round {impl: {size: us}}]});
    the pingpong runs pp_rounds rounds, the collectives rounds."""
    got, paired = {}, {}
    mpirun = ctx.args.mpirun
    plan = [(2, ["pingpong"]), (3, COLLS), (48, COLLS)]
    for rnd in range(max(rounds, pp_rounds)):
        for n, ops in plan:
            if rnd >= (pp_rounds if n == 2 else rounds):
                continue
            s = ",".join(str(x) for x in ([0, 1] if n == 2 else [])
                         + sizes(ctx.args.quick, 3 if n == 2 else n))
            # the pingpong's round trips take 0.1-0.3 us: 200 of them were
            # over in 40 us, and one timer tick or preemption decided a
            # round's figure
            base = "20" if n == 48 else "20000" if n == 2 else "200"
            args = ["-o", ",".join(ops), "-s", s, "-r", base]
            cmds = [("rockcreek", [rck, "run", "-n", str(n), "--backend",
                                   "native", "--no-prefix", "--", prog]
                     + args)]
            if ref:
                cmds.append(("openmpi", [mpirun, "--allow-run-as-root",
                                         "--oversubscribe", "-np", str(n),
                                         "--bind-to", "none", "--mca", "btl",
                                         "self,vader", ref] + args))
            if rnd % 2:
                cmds.reverse()
            this = {}
            for impl, cmd in cmds:
                mod.log("mpi native round %d %s %d processes ..."
                        % (rnd + 1, impl, n))
                for p in _run(mod, cmd, {}, 600) or []:
                    got.setdefault((impl, p["op"], n), []).append(
                        (p["size"], p["us"]))
                    this.setdefault((p["op"], n), {}).setdefault(
                        impl, {})[p["size"]] = p["us"]
            for key, by_impl in this.items():
                paired.setdefault(key, []).append(by_impl)
    return got, paired


def run_native_large(ctx, mod, prog, ref, rck, rounds):
    """OSU-shaped large messages: {(impl, op): [(size, us), ...]}, impl
    "openmpi" or a channel name; the implementations run back to back in
    each round, in reversed order every other round."""
    got = {}
    mpirun = ctx.args.mpirun
    sizes_ = [s for s in LARGE_SIZES if not ctx.args.quick or s <= 1048576]
    args = ["-o", ",".join(LARGE_OPS), "-s", ",".join(map(str, sizes_)),
            "-r", "2000"]
    for rnd in range(rounds):
        cmds = [(ch, [rck, "run", "-n", "2", "--backend", "native",
                      "--no-prefix", "--", prog] + args,
                 {"RCK_MPI_CHANNEL": ch}) for ch in LARGE_CHANNELS]
        if ref:
            cmds.append(("openmpi", [mpirun, "--allow-run-as-root", "-np",
                                     "2", "--bind-to", "none", "--mca", "btl",
                                     "self,vader", ref] + args, {}))
        if rnd % 2:
            cmds.reverse()
        for impl, cmd, env in cmds:
            mod.log("mpi native large round %d %s ..." % (rnd + 1, impl))
            for p in _run(mod, cmd, env, 900) or []:
                got.setdefault((impl, p["op"]), []).append(
                    (p["size"], p["us"]))
    return got


def large_value(op, size, us):
    """The figure OSU prints: one-way latency in us (pingpong), MB/s
    (bw, bibw: a window of WINDOW messages each way per us)."""
    if op == "pingpong":
        return us
    return (2 if op == "bibw" else 1) * WINDOW * size / us


def large_tables(got):
    """One table per op: per size each implementation's median and each
    channel's ratio to Open MPI (>= 1: as fast or faster); and the
    {op: {size: ratio}} of the native default channel."""
    tables, ratios = [], {}
    impls = LARGE_CHANNELS + ["openmpi"]
    for op in LARGE_OPS:
        med = {}
        for impl in impls:
            for size, us in got.get((impl, op), []):
                med.setdefault(impl, {}).setdefault(size, []).append(
                    large_value(op, size, us))
        med = {i: {k: report.aggregate(v)["median"] for k, v in d.items()}
               for i, d in med.items()}
        sizes_ = sorted({k for d in med.values() for k in d})
        if not sizes_:
            continue
        chans = [c for c in LARGE_CHANNELS if c in med]
        headers = (["size"] + ["%s\n%s" % (i, "us" if op == "pingpong"
                                            else "MB/s")
                               for i in impls if i in med]
                   + ["%s\nx Open MPI" % c for c in chans])
        rows = []
        for size in sizes_:
            theirs = med.get("openmpi", {}).get(size)
            row = [report.format_size(size)]
            row += [report.format_value(med[i].get(size)) for i in impls
                    if i in med]
            for c in chans:
                ours = med[c].get(size)
                r = (report.ratio(theirs, ours) if op == "pingpong"
                     else report.ratio(ours, theirs))
                row.append(report.format_value(r))
                if c == LARGE_DEFAULT and r is not None:
                    ratios.setdefault(op, {})[size] = r
            rows.append(row)
        what = {"pingpong": "osu_latency shape, one-way latency",
                "bw": "osu_bw shape, window of %d" % WINDOW,
                "bibw": "osu_bibw shape, window of %d each way" % WINDOW}[op]
        tables.append("mpi native large messages, 2 processes, %s (medians "
                      "of the rounds; x Open MPI at or above 1: as fast or "
                      "faster)\n" % what
                      + report.format_table(headers, rows))
    return tables, ratios


def large_verdict(ratios):
    """Target: the native default channel >= 1.0x Open MPI at every size
    of every op."""
    target = ("OSU-shaped latency, bw, bibw 16 KiB-4 MiB >= 1.0x Open MPI "
              "(%s, medians)" % LARGE_DEFAULT)
    pts = [{"op": op, "size": k, "ratio": r}
           for op, d in ratios.items() for k, r in d.items()]
    if not pts:
        return report.Verdict(target, "NOT EVALUATED", "no Open MPI figures")
    bad = [p for p in pts if p["ratio"] < 1.0]
    worst = min(pts, key=lambda p: p["ratio"])
    detail = ("%d/%d points below; worst %s %s: %sx"
              % (len(bad), len(pts), worst["op"],
                 report.format_size(worst["size"]),
                 report.format_value(worst["ratio"])))
    return report.Verdict(target, "NOT MET" if bad else "MET", detail, pts)


def paired_ratios(rounds, ours="rockcreek", theirs="openmpi"):
    """Per size, the ratios ours / theirs of every round that measured
    both (a round runs the two back to back).

    [in] rounds: list (one per round) of {impl: {size: us}}.
    Returns {size: [ratio, ...]} in round order, sizes sorted."""
    out = {}
    for rnd in rounds:
        a, b = rnd.get(ours, {}), rnd.get(theirs, {})
        for size in sorted(set(a) & set(b)):
            if b[size] > 0:
                out.setdefault(size, []).append(a[size] / b[size])
    return dict(sorted(out.items()))


def paired_table(title, by_size):
    """The table of paired_ratios(): per size the rounds, the median ratio,
    its quartiles and extremes."""
    rows = []
    for size, rs in by_size.items():
        a = report.aggregate(rs)
        rows.append([report.format_size(size), str(a["n"]),
                     report.format_value(a["median"]),
                     report.format_value(a["q1"]),
                     report.format_value(a["q3"]),
                     report.format_value(a["min"]),
                     report.format_value(a["max"])])
    return (title + " [ratio rockcreek / Open MPI of each round's back to "
            "back runs; below 1: rockcreek faster]\n" +
            report.format_table(["size", "rounds", "ratio\nmedian", "q1", "q3",
                                 "min", "max"], rows))


# issue 27's target: one-way latency 0 B-1 KiB <= 0.8x Open MPI's
LAT_LIMIT = 0.8


def paired_verdict(by_size, max_size=1024, limit=LAT_LIMIT):
    """Target: the median of the rounds' ratios <= limit for every size up
    to max_size."""
    target = ("latency <= %gx Open MPI for sizes <= %s (median of the "
              "rounds' own ratios)" % (limit, report.format_size(max_size)))
    pts = [{"size": k, "ratio": report.aggregate(v)["median"], "rounds":
            len(v)} for k, v in by_size.items() if k <= max_size and v]
    if not pts:
        return report.Verdict(target, "NOT EVALUATED",
                              "no round measured both")
    bad = [p for p in pts if p["ratio"] > limit]
    worst = max(pts, key=lambda p: p["ratio"])
    detail = ("%d/%d sizes beyond; worst %s: ratio %s over %d rounds"
              % (len(bad), len(pts), report.format_size(worst["size"]),
                 report.format_value(worst["ratio"]), worst["rounds"]))
    return report.Verdict(target, "NOT MET" if bad else "MET", detail, pts)


def _agg(pairs):
    by = {}
    for size, us in pairs:
        by.setdefault(size, []).append(us)
    return {k: report.aggregate(v) for k, v in sorted(by.items())}


def suite(ctx, run):
    """The mpi suite; ``run`` is the driver module (rockcreek.bench.run):
    its helpers are looked up at call time."""
    mod = run
    SuiteResult, csv_rows_for = mod.SuiteResult, mod.csv_rows_for
    a = ctx.args
    bdir = os.path.join(a.build_dir, "bench", "rckmpi")
    prog = os.path.join(bdir, "rckmpi_bench")
    ref = os.path.join(bdir, "rckmpi_bench_ompi")
    rck = os.path.join(a.build_dir, "src", "tools", "rck")
    if not os.access(prog, os.X_OK) or not os.access(rck, os.X_OK):
        mod._not_run(ctx, "mpi", "not built: %s" % prog)
        return SuiteResult("mpi", {"error": "not built"})
    if a.no_mpi or not os.access(ref, os.X_OK):
        ref = None
    tables, verdicts, csv_rows, data, plots = [], [], [], {}, []
    sim, raw = run_sim(ctx, mod, prog, rck)
    data["sim_raw"] = raw
    for n in sorted(sim):
        tables.append(sim_table(n, sim[n]))
    rounds = 1 if a.quick else 3
    # the pingpong is cheap (2 processes, seconds): more rounds, so that
    # the medians and the rounds' own ratios are not one placement's
    got, paired = run_native(ctx, mod, prog, ref, rck, rounds,
                             3 if a.quick else 9)
    data["native_raw"] = {"%s/%s/%d" % k: v for k, v in got.items()}
    large = run_native_large(ctx, mod, prog, ref, rck, rounds)
    data["native_large_raw"] = {"%s/%s" % k: v for k, v in large.items()}
    lt, lr = large_tables(large)
    tables += lt
    verdicts.append(large_verdict(lr))
    ops = sorted({(op, n) for (_, op, n) in got},
                 key=lambda x: (x[1], (["pingpong"] + COLLS).index(x[0])))
    for op, n in ops:
        ours = _agg(got.get(("rockcreek", op, n), []))
        theirs = _agg(got.get(("openmpi", op, n), []))
        what = "one-way latency" if op == "pingpong" else "time per call"
        tables.append(report.comparison_table(
            "mpi native %s, %d processes, %s" % (op, n, what), ours, theirs,
            "us", True))
        csv_rows += csv_rows_for("mpi", "%s_%d_us" % (op, n), "us", True,
                                 "rockcreek", ours, "openmpi", theirs)
        if op == "pingpong":
            verdicts.append(report.latency_verdict(ours, theirs,
                                                      limit=LAT_LIMIT))
            pr = paired_ratios(paired.get((op, n), []))
            if pr:
                tables.append(paired_table(
                    "mpi native pingpong, 2 processes, one-way latency, "
                    "round by round", pr))
                verdicts.append(paired_verdict(pr))
                data["native_paired"] = {str(k): v for k, v in pr.items()}
            bw = {k: report.aggregate([k / v["median"]]) for k, v in
                  ours.items() if k > 0}
            bwr = {k: report.aggregate([k / v["median"]]) for k, v in
                   theirs.items() if k > 0}
            tables.append(report.comparison_table(
                "mpi native pingpong bandwidth (from the median latency)",
                bw, bwr, "MB/s", False))
            series = {"rockcreek MPI": ours, "Open MPI": theirs}
            plots.append(("mpi-pingpong-latency.png",
                          lambda path, s=series:
                          mod._plots().plot_latency(s, path)))
    for n in sorted(sim):
        series = {ch: {size: report.aggregate([c]) for (op, size), c in
                       sim[n].get(ch, {}).items() if op == "bcast"}
                  for ch in CHANNELS}
        plots.append(("mpi-sim-bcast-%d.png" % n,
                      lambda path, s=series, n=n: mod._plots()
                      ._size_series_plot(s, path, "MPI_Bcast on sim, %d "
                                         "processes, both channels" % n,
                                         "core cycles per call", True,
                                         "min")))
    return SuiteResult("mpi", data, tables, verdicts, csv_rows, plots)
