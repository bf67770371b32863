"""The mpi-backend suite: RCCE on the mpi backend beside the MPI it runs on.

For every MPI the backend has a plugin for (Open MPI, MPICH) and for both
paths of the backend (the node's shared memory, and RCK_MPI_NODES=rank:
every rank its own node, all chip state over RMA), in interleaved rounds
of one run:

  * RCCE pingpong (bench/rcce_pingpong) vs MPI_Send/MPI_Recv pingpong
    (bench/mpi_pingpong.c built with that MPI's compiler wrapper);
  * the 48-UE RCCE_barrier vs MPI_Barrier;
  * the RMA floor (tests/mpi/mpi_rma_floor.c, plain MPI): one RMA
    operation + flush between two ranks on a window like the split
    path's, beside the MPI's one-way send/recv latency: what an RCCE
    message on that path is built from (docs/MPI-BACKEND.md).

Targets (issue 13): one-way latency <= 1.5 x the MPI's for small messages
(<= 1 KiB) and bandwidth >= 70% of the MPI's from 64 KiB.

Both paths run on one machine, so the MPI underneath still moves bytes
through shared memory: the rank setting exercises the backend's
cross-node code (no shared mapping, RMA that completes at the target) and
the MPI's general RMA component, not a network (docs/MPI-BACKEND.md).
"""

import os
import shutil

from . import report

FLAVORS = {
    "openmpi": {"label": "Open MPI", "mpirun": "mpirun.openmpi",
                "mpicc": "mpicc.openmpi",
                "opts": ["--allow-run-as-root", "--oversubscribe",
                         "--bind-to", "none"]},
    "mpich": {"label": "MPICH", "mpirun": "mpirun.mpich",
              "mpicc": "mpicc.mpich", "opts": []},
}
PATHS = {"shm": "auto", "split": "rank"}
LAT_MAX = 1024
LAT_FACTOR = 1.5
BW_MIN = 65536
BW_FRACTION = 0.7


def latency_factor_verdict(ours_label, ref_label, ours, ref):
    """Target: median one-way latency <= LAT_FACTOR x the MPI's for every
    size up to LAT_MAX (the ratios printed are the real ones)."""
    target = "%s: latency <= %.1f x %s for sizes <= %s" % (
        ours_label, LAT_FACTOR, ref_label, report.format_size(LAT_MAX))
    pts = [{"size": k, "ours": ours[k]["median"], "theirs": ref[k]["median"],
            "ratio": report.ratio(ours[k]["median"], ref[k]["median"])}
           for k in sorted(set(ours) & set(ref)) if k <= LAT_MAX]
    if not pts:
        return report.Verdict(target, "NOT EVALUATED", "no results")
    bad = [p for p in pts if p["ratio"] is None or p["ratio"] > LAT_FACTOR]
    worst = max(pts, key=lambda p: p["ratio"] or 0)
    return report.Verdict(
        target, "NOT MET" if bad else "MET",
        "%d/%d sizes above; worst %s: %s us vs %s us, ratio %s"
        % (len(bad), len(pts), report.format_size(worst["size"]),
           report.format_value(worst["ours"]),
           report.format_value(worst["theirs"]),
           report.format_value(worst["ratio"])), pts)


def _mpi_program(ctx, flavor, name, build_mpi_program, source_dir,
                 subdir="bench"):
    """<subdir>/mpi_<name> for this MPI: CMake's build of bench/ for Open
    MPI, else built here into the output directory."""
    a = ctx.args
    if flavor == "openmpi" and subdir == "bench":
        exe = os.path.join(a.build_dir, "bench", "mpi_" + name)
        if os.access(exe, os.X_OK):
            return exe, None
    mpicc = shutil.which(FLAVORS[flavor]["mpicc"])
    if mpicc is None:
        return None, "%s not found" % FLAVORS[flavor]["mpicc"]
    out = os.path.join(a.out, "mpi-build-" + flavor)
    os.makedirs(out, exist_ok=True)
    exe = os.path.join(out, "mpi_" + name)
    err = build_mpi_program(mpicc, os.path.join(source_dir, subdir,
                                                "mpi_%s.c" % name), exe)
    return (None, err) if err else (exe, None)


def impls_for(ctx, flavor, Impl, build_mpi_program, source_dir):
    """[ours on the shm path, ours on the split path, the raw MPI]."""
    a = ctx.args
    f = FLAVORS[flavor]
    rck = os.path.join(a.build_dir, "src", "tools", "rck")
    plugin = os.path.join(a.build_dir, "librockcreek-mpi-%s.so" % flavor)
    mpirun = shutil.which(f["mpirun"])
    ours_progs = {
        "pingpong": os.path.join(a.build_dir, "bench", "rcce_pingpong"),
        "barrier": os.path.join(a.build_dir, "bench", "rcce_barrier"),
    }
    out = []
    why = None
    if not os.path.exists(plugin):
        why = "no plugin %s (build with that MPI installed)" % plugin
    elif mpirun is None:
        why = "%s not found" % f["mpirun"]
    for path, nodes in PATHS.items():
        def launch(prog, nproc, prog_args, nodes=nodes):
            return ["env", "RCK_MPI=" + flavor, "RCK_MPI_NODES=" + nodes,
                    rck, "run", "-n", str(nproc), "--backend", "mpi",
                    "--no-prefix", "--", prog] + prog_args
        name = "rck-%s-%s" % (flavor, path)
        label = "RCCE on mpi (%s, %s)" % (f["label"], path)
        progs = dict(ours_progs)
        if flavor == "mpich" and path == "split":
            # 48 oversubscribed ranks on MPICH's windows of user memory
            # take minutes per round (docs/MPI-BACKEND.md): pingpong only
            del progs["barrier"]
        out.append(Impl(name, label, progs, launch, why is None, why or ""))
    raw = {}
    problems = []
    if why is None:
        for bench in ("pingpong", "barrier"):
            exe, err = _mpi_program(ctx, flavor, bench, build_mpi_program,
                                    source_dir)
            if exe:
                raw[bench] = exe
            else:
                problems.append(err)

    def launch_raw(prog, nproc, prog_args):
        return [mpirun, "-n", str(nproc)] + f["opts"] + [prog] + prog_args
    if why is None:
        exe, err = _mpi_program(ctx, flavor, "rma_floor", build_mpi_program,
                                source_dir, subdir=os.path.join("tests",
                                                                "mpi"))
        if exe:
            raw["rma_floor"] = exe
        else:
            problems.append(err)
    out.append(Impl("mpi-" + flavor, f["label"], raw, launch_raw,
                    bool(raw), why or "; ".join(problems)))
    return out


def parse_floor_output(text, source=None):
    """mpi_rma_floor's lines "op=NAME us=VALUE" -> [{"op", "us"}]."""
    res = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = dict(t.partition("=")[::2] for t in line.split())
        try:
            us = float(f["us"])
            if set(f) != {"op", "us"} or not f["op"] or us < 0:
                raise ValueError
        except (KeyError, ValueError):
            raise report.BenchParseError("expected op=NAME us=VALUE", line,
                                         lineno, source) from None
        res.append({"op": f["op"], "us": us})
    if not res:
        raise report.BenchParseError("no results", source=source)
    return res


def floor_table(label, recs):
    """The RMA floor's medians over the rounds, one row per operation."""
    per_op = {}
    for rec in recs:
        for r in rec.get("results", []) if rec.get("ok") else []:
            per_op.setdefault(r["op"], []).append(r["us"])
    rows = []
    for op, vals in per_op.items():
        agg = report.aggregate(vals)
        rows.append([op, report.format_value(agg["median"]),
                     "%s-%s" % (report.format_value(agg["min"]),
                                report.format_value(agg["max"])),
                     str(len(vals))])
    title = ("%s: RMA floor (2 ranks, MPI_Win_create window, every "
             "operation + MPI_Win_flush; tests/mpi/mpi_rma_floor.c)" % label)
    return title + "\n" + report.format_table(
        ["operation", "median us", "range", "rounds"], rows), per_op


def suite(ctx, run):
    """The mpi-backend suite: RCCE on the mpi backend beside the MPI it
    runs on; ``run`` is the driver module (rockcreek.bench.run)."""
    Impl, SuiteResult, csv_rows_for = run.Impl, run.SuiteResult, \
        run.csv_rows_for
    build_mpi_program, source_dir = run._build_mpi_program, run.SOURCE_DIR
    a = ctx.args
    quick = bool(a.quick)
    max_size = min(a.max_size, 1 << 20)
    pp_args = ["-s", str(max_size), "-m", "0", "-r",
               repr(a.reps_scale * (0.25 if quick else 1.0))]
    bar_ues = a.barrier_ues
    bar_args = ["-n", str(max(10, a.barrier_reps // (10 if quick else 2)))]
    rounds = ctx.rounds
    tables, verdicts, rows = [], [], []
    data = {"params": {"rounds": rounds, "max_size": max_size,
                       "barrier_ues": bar_ues, "barrier_args": bar_args,
                       "pingpong_args": pp_args},
            "flavors": {}}
    for flavor in FLAVORS:
        impls = impls_for(ctx, flavor, Impl, build_mpi_program, source_dir)
        raw_impl = impls[-1]
        fdata = {"impls": {i.name: {"label": i.label,
                                    "available": i.available,
                                    "reason": i.reason} for i in impls}}
        data["flavors"][flavor] = fdata
        live = [i for i in impls if i.available and i.has("pingpong")]
        if raw_impl not in live:
            tables.append("mpi-backend %s: not run: %s"
                          % (FLAVORS[flavor]["label"], raw_impl.reason))
            continue
        pp = {i.name: [] for i in live}
        bar = {i.name: [] for i in live}
        floor = []
        for rnd in range(1, rounds + 1):
            order = live if rnd % 2 else list(reversed(live))
            for impl in order:
                suite_key = "mpi-backend pingpong %s" % impl.name
                if not ctx.gave_up(impl, suite_key):
                    pp[impl.name].append(ctx.run_bench(
                        impl, "pingpong", suite_key, 2, pp_args, rnd,
                        report.parse_pingpong_output, rounds=rounds))
            for impl in order:
                suite_key = "mpi-backend barrier %s" % impl.name
                if impl.has("barrier") and not ctx.gave_up(impl, suite_key):
                    bar[impl.name].append(ctx.run_bench(
                        impl, "barrier", suite_key, bar_ues, bar_args, rnd,
                        lambda out, source: [report.parse_barrier_output(
                            out, source)], rounds=rounds, timeout=240))
            suite_key = "mpi-backend rma_floor %s" % raw_impl.name
            if raw_impl.has("rma_floor") and not ctx.gave_up(raw_impl,
                                                             suite_key):
                floor.append(ctx.run_bench(
                    raw_impl, "rma_floor", suite_key, 2,
                    ["5000" if quick else "20000"], rnd, parse_floor_output,
                    rounds=rounds))
        ok = lambda recs: [r["results"] for r in recs if r.get("ok")]
        lat = {n: report.aggregate_rounds(ok(r), "size", "lat_us")
               for n, r in pp.items()}
        bw = {n: {k: v for k, v in
                  report.aggregate_rounds(ok(r), "size", "bw_mbs").items()
                  if k > 0} for n, r in pp.items()}
        bsum = {n: report.aggregate_rounds(ok(r), "ues", "us_per_barrier")
                for n, r in bar.items()}
        if floor:
            text, per_op = floor_table(raw_impl.label, floor)
            tables.append(text)
            fdata["rma_floor_us"] = {op: report.aggregate(v)
                                     for op, v in per_op.items()}
            fdata["raw_rma_floor"] = floor
        fdata.update({"raw_pingpong": pp, "raw_barrier": bar,
                      "lat_us": lat, "bw_mbs": bw,
                      "us_per_barrier": bsum})
        ref = raw_impl.name
        rl, rb, rbar = lat.get(ref, {}), bw.get(ref, {}), bsum.get(ref, {})
        for impl in live:
            if impl is raw_impl:
                continue
            ol, ob = lat.get(impl.name, {}), bw.get(impl.name, {})
            obar = bsum.get(impl.name, {})
            verdicts.append(latency_factor_verdict(
                impl.label, raw_impl.label, ol, rl))
            v = report.bandwidth_verdict(ob, rb, BW_MIN, BW_FRACTION,
                                         raw_impl.label)
            v.target = "%s: %s" % (impl.label, v.target)
            verdicts.append(v)
            tables.append(report.comparison_table(
                "%s vs %s: pingpong one-way latency" % (impl.label,
                                                        raw_impl.label),
                ol, rl, "us", True, theirs_name=raw_impl.label))
            tables.append(report.comparison_table(
                "%s vs %s: pingpong bandwidth" % (impl.label,
                                                  raw_impl.label),
                ob, rb, "MB/s", False, theirs_name=raw_impl.label))
            tables.append(report.comparison_table(
                "%s vs %s: barrier" % (impl.label, raw_impl.label),
                obar, rbar, "us per barrier", True,
                key_format=lambda k: "%d UEs" % k, key_header="UEs",
                theirs_name=raw_impl.label))
            rows += csv_rows_for("mpi-backend", "lat_us", "us", True,
                                 impl.name, ol, ref, rl)
            rows += csv_rows_for("mpi-backend", "bw_mbs", "MB/s", False,
                                 impl.name, ob, ref, rb)
            rows += csv_rows_for("mpi-backend", "us_per_barrier", "us", True,
                                 impl.name, obar, ref, rbar)
    return SuiteResult("mpi-backend", data, tables, verdicts, rows, [])
