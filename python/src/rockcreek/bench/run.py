#!/usr/bin/env python3
"""rockcreek.bench driver (rck-bench): runs rockcreek's benchmarks beside their reference
(Open MPI on the same machine), in interleaved rounds, and reports medians,
minima, ratios and target verdicts; writes results.json, results.csv and
plots into the output directory.

    rck-bench --build-dir build --out build/bench-results
    PYTHONPATH=python/src python3 -m rockcreek.bench --build-dir build --quick --suite pingpong

Suites plug in through SUITES (name -> function(ctx) -> SuiteResult); see
python/README.md for how to add one.
"""

import argparse
import csv
import datetime
import importlib
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import time

from . import report
from . import simbench
from . import collbench
from . import svmbench
from . import loadbench
from . import mpibench
from . import msglogbench
from . import snetbench
from . import ipbench
from . import powerbench
from . import rckmpibench
from . import p54cbench
from . import pybench



def _source_dir():
    """The rockcreek source tree: $RCK_SOURCE_DIR, else the tree this
    package sits in (python/src/rockcreek/bench), else the working
    directory (an installed package: run it from the source tree)."""
    env = os.environ.get("RCK_SOURCE_DIR")
    if env:
        return os.path.abspath(env)
    here = os.path.abspath(__file__)
    for _ in range(5):
        here = os.path.dirname(here)
    if os.path.isfile(os.path.join(here, "bench", "CMakeLists.txt")):
        return here
    return os.getcwd()


SOURCE_DIR = _source_dir()

MPI_CFLAGS = ["-std=c11", "-D_GNU_SOURCE", "-O2", "-Wall", "-Wextra",
              "-Wshadow", "-Wno-unused-parameter", "-Werror"]


def log(msg="", end="\n"):
    print(msg, end=end, flush=True)


# ---------------------------------------------------------------------------
# Implementations: how to launch a benchmark program of each.

class Impl:
    """One implementation under test or of reference.

    name: short key used in files ("rockcreek", "openmpi"); label: for
    humans; programs: benchmark key -> executable path; available/reason:
    whether it can run and, if not, why."""

    def __init__(self, name, label, programs, launch, available=True,
                 reason=""):
        self.name = name
        self.label = label
        self.programs = programs
        self._launch = launch
        self.available = available
        self.reason = reason

    def has(self, bench):
        return self.available and bench in self.programs

    def command(self, bench, nproc, args):
        return self._launch(self.programs[bench], nproc, list(args))


def make_rockcreek(args):
    rck = os.path.join(args.build_dir, "src", "tools", "rck")
    programs = {
        "pingpong": os.path.join(args.build_dir, "bench", "rcce_pingpong"),
        "barrier": os.path.join(args.build_dir, "bench", "rcce_barrier"),
        "ircce": os.path.join(args.build_dir, "bench", "ircce_pingpong"),
        "coll": os.path.join(args.build_dir, "bench", "coll_bench"),
    }

    def launch(prog, nproc, prog_args):
        return [rck, "run", "-n", str(nproc), "--backend", args.backend,
                "--no-prefix", "--", prog] + prog_args

    missing = [p for p in [rck] + list(programs.values())
               if not os.access(p, os.X_OK)]
    if missing:
        return Impl("rockcreek", "rockcreek", programs, launch, False,
                    "not built: %s (build with 'ninja -C %s bench')"
                    % (", ".join(missing), args.build_dir))
    return Impl("rockcreek", "rockcreek (%s)" % args.backend, programs,
                launch)


def _split_launcher_args(args):
    """[launcher options..., "--", program args...] -> the two lists (no
    "--": all program args)."""
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1:]
    return [], args


def make_sim(args):
    """rockcreek on the sim backend, for the sim-* suites. Program keys are
    prefixed "sim_" so the native suites never pick them up. A run's
    arguments are [rck run options..., "--", program args...]."""
    rck = os.path.join(args.build_dir, "src", "tools", "rck")
    wanted = {
        "sim_pingpong": os.path.join(args.build_dir, "bench",
                                     "rcce_pingpong"),
        "sim_barrier": os.path.join(args.build_dir, "bench", "rcce_barrier"),
        "sim_stencil": os.path.join(args.build_dir, "examples", "stencil"),
        "sim_calib": os.path.join(args.build_dir, "bench",
                                  "bench_sim_calib"),
        "sim_ircce": os.path.join(args.build_dir, "bench",
                                  "ircce_pingpong"),
        "sim_coll": os.path.join(args.build_dir, "bench", "coll_bench"),
        "sim_laplace": os.path.join(args.build_dir, "apps", "laplace",
                                    "laplace"),
        "sim_mbox": os.path.join(args.build_dir, "bench", "mbox",
                                 "mbox_pingpong"),
    }

    def launch(prog, nproc, prog_args):
        opts, pargs = _split_launcher_args(prog_args)
        return ([rck, "run", "-n", str(nproc), "--backend", "sim",
                 "--no-prefix"] + opts + ["--", prog] + pargs)

    if not os.access(rck, os.X_OK):
        return Impl("sim", "rockcreek (sim backend)", {}, launch, False,
                    "not built: %s" % rck)
    helptext = _command_output([rck, "run", "--help"]) or ""
    if "sim" not in helptext:
        return Impl("sim", "rockcreek (sim backend)", {}, launch, False,
                    "the sim backend is not compiled into %s" % rck)
    programs = {k: p for k, p in wanted.items() if os.access(p, os.X_OK)}
    missing = sorted(p for k, p in wanted.items() if k not in programs)
    impl = Impl("sim", "rockcreek (sim backend)", programs, launch,
                bool(programs), "not built: %s" % ", ".join(missing)
                if missing else "")
    return impl


def _build_mpi_program(mpicc, src, exe):
    cmd = [mpicc] + MPI_CFLAGS + ["-o", exe, src]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        return "'%s' failed:\n%s" % (" ".join(cmd), p.stdout)
    return None


def make_openmpi(args):
    def launch(prog, nproc, prog_args):
        return [args.mpirun, "--allow-run-as-root", "--oversubscribe",
                "-np", str(nproc), "--bind-to", "none",
                "--mca", "btl", "self,vader", prog] + prog_args

    if args.no_mpi:
        return Impl("openmpi", "Open MPI", {}, launch, False,
                    "disabled by --no-mpi")
    mpirun = shutil.which(args.mpirun)
    if mpirun is None:
        return Impl("openmpi", "Open MPI", {}, launch, False,
                    "Open MPI is not installed (%s not found; Debian: "
                    "apt-get install libopenmpi-dev openmpi-bin)"
                    % args.mpirun)
    args.mpirun = mpirun
    programs = {}
    problems = []
    for bench, src in (("pingpong", "pingpong"), ("barrier", "barrier"),
                       ("coll", "coll")):
        exe = os.path.join(args.build_dir, "bench", "mpi_" + src)
        if not os.access(exe, os.X_OK):
            # Not built by CMake (run outside 'make bench'): build it here.
            mpicc = shutil.which(args.mpicc)
            if mpicc is None:
                problems.append("%s not built and %s not found"
                                % (exe, args.mpicc))
                continue
            os.makedirs(os.path.join(args.out, "mpi-build"), exist_ok=True)
            exe = os.path.join(args.out, "mpi-build", "mpi_" + src)
            err = _build_mpi_program(
                mpicc, os.path.join(SOURCE_DIR, "bench",
                                    "mpi_%s.c" % src), exe)
            if err:
                problems.append(err)
                continue
        programs[bench] = exe
    if not programs:
        return Impl("openmpi", "Open MPI", {}, launch, False,
                    "; ".join(problems))
    for p in problems:
        log("warning: Open MPI: " + p)
    return Impl("openmpi", "Open MPI", programs, launch)


# ---------------------------------------------------------------------------
# Running one benchmark process.

def run_process(cmd, timeout):
    """Runs cmd in its own session; on timeout ends that process group.
    Returns (returncode or None on timeout, stdout, stderr, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    except OSError as e:
        return 127, "", "cannot start %s: %s" % (cmd[0], e), 0.0
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, err = p.communicate(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out, err = "", ""
        return None, out or "", err or "", time.monotonic() - t0


class Context:
    """What a suite gets: options, implementations, and run_bench()."""

    def __init__(self, args, impls):
        self.args = args
        self.impls = impls  # ordered: ours first, then references
        self.rounds = args.rounds
        self.failures = []
        self._fail_count = {}

    def available(self, bench):
        return [i for i in self.impls.values() if i.has(bench)]

    def order(self, round_no, impls):
        """Round 1 runs ours first, round 2 the reference first, etc."""
        return list(impls) if round_no % 2 == 1 else list(reversed(impls))

    def gave_up(self, impl, suite):
        return self._fail_count.get((impl.name, suite), 0) >= \
            self.args.max_failures

    def run_bench(self, impl, bench, suite, nproc, prog_args, round_no,
                  parse, rounds=None, with_stderr=False, timeout=None):
        """Runs one round of one benchmark; returns a record (JSON-able)
        with ok, results (parsed) or error, command, seconds.
        parse(stdout, source=...) gives the results; with with_stderr,
        parse(stdout, stderr, seconds, source=...)."""
        cmd = impl.command(bench, nproc, prog_args)
        log("round %d/%d: %s %s ... " % (round_no, rounds or self.rounds,
                                         impl.label, suite), end="")
        limit = timeout or self.args.timeout
        rc, out, err, secs = run_process(cmd, limit)
        rec = {"round": round_no, "impl": impl.name, "command": cmd,
               "seconds": round(secs, 3), "returncode": rc, "ok": False}
        try:
            if rc is None:
                raise RuntimeError("timed out after %d s" % limit)
            if rc != 0:
                raise RuntimeError("exit status %d" % rc)
            source = "%s %s" % (impl.name, bench)
            if with_stderr:
                rec["results"] = parse(out, err, secs, source=source)
            else:
                rec["results"] = parse(out, source=source)
            rec["ok"] = True
            log("ok (%.1f s)" % secs)
        except (RuntimeError, report.BenchParseError) as e:
            rec["error"] = str(e)
            rec["stdout_tail"] = out[-2000:]
            rec["stderr_tail"] = err[-2000:]
            log("FAILED: %s" % e)
            log("    command: %s" % " ".join(cmd))
            for line in (err.strip().splitlines()[-10:] or
                         out.strip().splitlines()[-5:]):
                log("    | " + line)
            key = (impl.name, suite)
            self._fail_count[key] = self._fail_count.get(key, 0) + 1
            self.failures.append("%s %s round %d: %s"
                                 % (impl.name, suite, round_no, e))
            if self.gave_up(impl, suite):
                log("    giving up on %s %s after %d failures"
                    % (impl.label, suite, self._fail_count[key]))
        return rec


class SuiteResult:
    """What a suite returns.

    data: JSON-able dict (raw rounds, summaries) for results.json;
    tables: strings printed after the suite; verdicts: report.Verdict list;
    csv_rows: dicts with CSV_FIELDS keys; plots: (filename, fn(path)) pairs;
    files: other (filename, fn(path)) pairs written beside results.json
    (e.g. a suite's own CSV), even with --no-plots.
    """

    def __init__(self, name, data, tables=(), verdicts=(), csv_rows=(),
                 plots=(), files=()):
        self.name = name
        self.data = data
        self.tables = list(tables)
        self.verdicts = list(verdicts)
        self.csv_rows = list(csv_rows)
        self.plots = list(plots)
        self.files = list(files)


CSV_FIELDS = ["suite", "metric", "unit", "point", "lower_is_better",
              "ours", "ours_median", "ours_min", "ours_max", "ours_n",
              "ref", "ref_median", "ref_min", "ref_max", "ref_n",
              "ratio_median", "status", "note"]


def csv_rows_for(suite, metric, unit, lower, ours_name, ours, ref_name, ref):
    rows = []
    for k in sorted(set(ours) | set(ref)):
        o = ours.get(k) or {}
        t = ref.get(k) or {}
        rows.append({
            "suite": suite, "metric": metric, "unit": unit, "point": k,
            "lower_is_better": int(lower),
            "ours": ours_name, "ours_median": o.get("median"),
            "ours_min": o.get("min"), "ours_max": o.get("max"),
            "ours_n": o.get("n"),
            "ref": ref_name, "ref_median": t.get("median"),
            "ref_min": t.get("min"), "ref_max": t.get("max"),
            "ref_n": t.get("n"),
            "ratio_median": report.ratio(o.get("median"), t.get("median")),
        })
    return rows


def _ok_results(records):
    return [r["results"] for r in records if r["ok"]]


# ---------------------------------------------------------------------------
# Suites.

def suite_pingpong(ctx):
    """RCCE_send/recv vs MPI_Send/Recv between 2 UEs, all sizes."""
    a = ctx.args
    impls = ctx.available("pingpong")
    prog_args = ["-s", str(a.max_size), "-m", str(a.min_size),
                 "-r", repr(a.reps_scale)]
    raw = {i.name: [] for i in impls}
    for rnd in range(1, ctx.rounds + 1):
        for impl in ctx.order(rnd, impls):
            if not ctx.gave_up(impl, "pingpong"):
                raw[impl.name].append(ctx.run_bench(
                    impl, "pingpong", "pingpong", 2, prog_args, rnd,
                    report.parse_pingpong_output))
    lat = {n: report.aggregate_rounds(_ok_results(r), "size", "lat_us")
           for n, r in raw.items()}
    bw = {n: report.aggregate_rounds(_ok_results(r), "size", "bw_mbs")
          for n, r in raw.items()}
    ours, ref = "rockcreek", "openmpi"
    ol, rl = lat.get(ours, {}), lat.get(ref, {})
    ob, rb = bw.get(ours, {}), bw.get(ref, {})
    # 0 B has no bandwidth.
    ob = {k: v for k, v in ob.items() if k > 0}
    rb = {k: v for k, v in rb.items() if k > 0}
    verdicts = [report.latency_verdict(ol, rl, 1024),
                report.bandwidth_verdict(ob, rb, 65536, 0.8)]
    zero_note = ("note: RCCE_send/RCCE_recv of 0 bytes exchange no flags "
                 "(as in Intel's RCCE), so the 0 B row times the calls, not "
                 "a message; MPI's 0 B is a real message.")
    tables = [
        report.comparison_table("pingpong one-way latency (half round trip)",
                                ol, rl, "us", True)
        + ("\n" + zero_note if 0 in ol else ""),
        report.comparison_table("pingpong bandwidth (size / one-way latency)",
                                ob, rb, "MB/s = 10^6 B/s", False),
    ]
    labels = {i.name: i.label for i in ctx.impls.values()}
    note = ("%d rounds: median line, quartile band, best round dotted"
            % ctx.rounds)
    plots = [
        ("latency.png", lambda path: _plots().plot_latency(
            {labels[n]: s for n, s in lat.items() if s}, path, note)),
        ("bandwidth.png", lambda path: _plots().plot_bandwidth(
            {labels[n]: {k: v for k, v in s.items() if k > 0}
             for n, s in bw.items() if s}, path, note)),
    ]
    data = {
        "params": {"ues": 2, "max_size": a.max_size, "min_size": a.min_size,
                   "reps_scale": a.reps_scale, "rounds": ctx.rounds},
        "raw": raw,
        "summary": {"lat_us": lat, "bw_mbs": bw},
        "ratio_median": {"lat_us": report.ratios(ol, rl),
                         "bw_mbs": report.ratios(ob, rb)},
    }
    rows = (csv_rows_for("pingpong", "lat_us", "us", True, ours, ol, ref, rl)
            + csv_rows_for("pingpong", "bw_mbs", "MB/s", False, ours, ob,
                           ref, rb))
    return SuiteResult("pingpong", data, tables, verdicts, rows, plots)


def suite_barrier(ctx):
    """RCCE_barrier vs MPI_Barrier over --barrier-ues processes."""
    a = ctx.args
    impls = ctx.available("barrier")
    prog_args = ["-n", str(a.barrier_reps)]
    raw = {i.name: [] for i in impls}
    for rnd in range(1, ctx.rounds + 1):
        for impl in ctx.order(rnd, impls):
            if not ctx.gave_up(impl, "barrier"):
                raw[impl.name].append(ctx.run_bench(
                    impl, "barrier", "barrier", a.barrier_ues, prog_args, rnd,
                    lambda out, source: [report.parse_barrier_output(
                        out, source)]))
    summary = {n: report.aggregate_rounds(_ok_results(r), "ues",
                                          "us_per_barrier")
               for n, r in raw.items()}
    ours, ref = "rockcreek", "openmpi"
    o, r = summary.get(ours, {}), summary.get(ref, {})
    tables = [report.comparison_table(
        "barrier", o, r, "us per barrier", True,
        key_format=lambda k: "%d UEs" % k, key_header="UEs")]
    labels = {i.name: i.label for i in ctx.impls.values()}
    ues = a.barrier_ues
    plots = [("barrier.png", lambda path: _plots().plot_bars(
        {labels[n]: s.get(ues) for n, s in summary.items()}, path,
        "barrier, %d UEs on %d CPUs" % (ues, os.cpu_count() or 0),
        "us per barrier (median, quartiles; dot: best)",
        "%d rounds of %d barriers" % (ctx.rounds, a.barrier_reps)))]
    data = {"params": {"ues": ues, "reps": a.barrier_reps,
                       "rounds": ctx.rounds},
            "raw": raw, "summary": {"us_per_barrier": summary},
            "ratio_median": {"us_per_barrier": report.ratios(o, r)}}
    rows = csv_rows_for("barrier", "us_per_barrier", "us", True, ours, o,
                        ref, r)
    return SuiteResult("barrier", data, tables, [], rows, plots)


def write_dict_csv(path, fields, rows):
    """A CSV with the given columns (None -> empty)."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for row in rows:
            w.writerow({k: ("" if row.get(k) is None else row.get(k))
                        for k in fields})


def _sim_report_path(ctx, name):
    d = os.path.join(ctx.args.out, "sim-reports")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    if os.path.exists(path):
        os.remove(path)  # never read a previous run's report
    return path


def _read_sim_report(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise report.BenchParseError("no readable sim report %s: %s"
                                     % (path, e)) from None
    return simbench.parse_sim_report(doc)


def _not_run(ctx, suite, why, what=None):
    """A sim benchmark that cannot run (program not built, no sim backend):
    a failure if the suite was asked for by name, else a warning (e.g. the
    examples are not built, so there is no stencil)."""
    name = suite + (" " + what if what else "")
    log("%s: NOT RUN: %s" % (name, why))
    if ctx.args.suite and suite in ctx.args.suite:
        ctx.failures.append("%s not run: %s" % (name, why))


CALIB_CSV_FIELDS = ["id", "group", "name", "unit", "published", "section",
                    "modelled", "ratio", "status", "note", "hops", "table"]

CALIB_RUNS = 2  # deterministic (compute model none): the second run checks


def suite_sim_calibration(ctx):
    """The published SCC measurements repeated on the sim model (compute
    model none; MPB, DRAM, bandwidth, local operations, interrupts)."""
    sim = ctx.impls.get("sim")
    runs = []
    if sim is None or not sim.has("sim_calib"):
        why = sim.reason if sim is not None else "no sim implementation"
        _not_run(ctx, "sim-calibration", why)
    else:
        for rnd in range(1, CALIB_RUNS + 1):
            if ctx.gave_up(sim, "sim-calibration"):
                break
            rpath = _sim_report_path(ctx, "calibration.r%d.json" % rnd)

            def parse(out, err, secs, source=None, rpath=rpath):
                parsed = simbench.parse_calib_output(out, source)
                rep = _read_sim_report(rpath)
                if rep["compute_model"] != "none":
                    raise report.BenchParseError(
                        "compute model %s, not none" % rep["compute_model"])
                return {"calib": parsed, "report": rep}

            runs.append(ctx.run_bench(
                sim, "sim_calib", "sim-calibration", 3,
                ["--cores", "0,1,47", "--compute", "none", "--report", rpath,
                 "--"], rnd, parse, rounds=CALIB_RUNS, with_stderr=True,
                timeout=min(ctx.args.timeout, 120)))
    ok = [r["results"] for r in runs if r["ok"]]
    parsed = ok[0]["calib"] if ok else None
    rows = simbench.evaluate_calibration(parsed)
    summary = simbench.calibration_summary(rows)
    deterministic = (all(simbench.calibration_outputs_equal(parsed, o["calib"])
                         for o in ok[1:]) if len(ok) > 1 else None)
    devs = {
        "mpb_write": simbench.mpb_table_deviations(
            simbench.MPB_WRITE_TABLE, simbench.MPB_WRITE_BY_HOPS),
        "mpb_read": simbench.mpb_table_deviations(
            simbench.MPB_READ_TABLE, simbench.MPB_READ_BY_HOPS),
    }
    ndev = sum(len(v) for v in devs.values())
    notes = [
        "Published values: the SCC hardware reference SCC-HARDWARE.md "
        "(see docs/CALIBRATION.md; cycles of a 533 MHz core, mesh and DDR3 "
        "at 800 MHz), copied into python/src/rockcreek/bench/simbench.py.",
        "MPB rows are compared with the hop-indexed series of section 2.1, "
        "not its (x, y) tables, which the reference calls partly garbled "
        "(%s). The (x, y) table value is kept in results.json and the CSV."
        % ("as printed in the reference, every cell agrees with the series "
           "at its hop count" if ndev == 0 else
           "as printed in the reference, %d cell(s) lie outside the series "
           "at their hop count" % ndev),
        "Modelled: rck_hal_cycles() before and after, minus one empty "
        "measurement, on core 0 (cores 0, 1, 47; compute model none). "
        "Bandwidths: 64 KiB by DWORD loads/stores (MPBT stores by 32-byte "
        "line), MiB/s at the chip's %.0f MHz." % (
            parsed["info"]["core_mhz"] if parsed else simbench.CORE_MHZ),
    ]
    if parsed:
        notes.append("shm_set_map on this build: %s."
                     % parsed["info"].get("set_map", "?"))
    if deterministic is not None:
        notes.append("Deterministic: %s (%d identical runs)." % (
            "yes" if deterministic else "NO, the runs differ", len(ok)))
    table = ("sim calibration: published vs modelled [within %d%% = PASS]\n"
             % round(simbench.TOLERANCE * 100)
             + simbench.calibration_table(rows) + "\n" + "\n".join(notes)
             + "\nsummary: " + summary["text"])
    verdicts = [report.Verdict(
        "sim calibration: modelled within %d%% of the published value"
        % round(simbench.TOLERANCE * 100),
        "NOT EVALUATED" if not summary["compared"] else
        ("MET" if summary["failed"] == 0 and summary["not_modelled"] == 0
         else "NOT MET"), summary["text"])]
    csv_rows = []
    for r in rows:
        pub = r["published"]
        lo = hi = mid = None
        if isinstance(pub, (tuple, list)):
            lo, hi = pub
            mid = (lo + hi) / 2.0
        elif pub is not None:
            lo = hi = mid = pub
        csv_rows.append({
            "suite": "sim-calibration", "metric": r["id"], "unit": r["unit"],
            "point": r.get("hops", ""), "lower_is_better": "",
            "ours": "sim model", "ours_median": r["modelled"],
            "ours_min": r["modelled"], "ours_max": r["modelled"],
            "ours_n": 1 if r["modelled"] is not None else 0,
            "ref": "published SCC-HARDWARE.md %s" % r["section"],
            "ref_median": mid, "ref_min": lo, "ref_max": hi,
            "ref_n": 1 if pub is not None else 0,
            "ratio_median": r["ratio"], "status": r["status"],
            "note": r["note"]})
    flat = [dict(r, published=r["published_text"]) for r in rows]
    note = "published: SCC-HARDWARE.md; modelled: sim backend, compute none"
    plots = [
        ("sim_calibration_mpb.png",
         lambda path: _plots().plot_calibration_mpb(rows, path, note)),
        ("sim_calibration.png",
         lambda path: _plots().plot_calibration(rows, path, note)),
    ]
    files = [("sim-calibration.csv", lambda path: write_dict_csv(
        path, CALIB_CSV_FIELDS, flat))]
    data = {"runs": runs, "rows": rows, "summary": summary,
            "deterministic": deterministic,
            "mpb_table_deviations": devs, "notes": notes,
            "info": parsed["info"] if parsed else None}
    return SuiteResult("sim-calibration", data, [table], verdicts, csv_rows,
                       plots, files)


SPEED_CSV_FIELDS = ["benchmark", "label", "metric", "median", "min", "max",
                    "n", "target", "status", "unit"]


def _speed_parser(bench, rpath):
    """The parse function of one sim-speed run: the program's output, the
    report, the summary; returns the round's speed point."""
    def parse(out, err, secs, source=None):
        rep = _read_sim_report(rpath)
        if rep["ended"] not in (None, "ok"):
            raise report.BenchParseError("sim run ended: %s" % rep["ended"])
        ops, model = None, None
        if bench["prog"] == "sim_pingpong":
            res = report.parse_pingpong_output(out, source)
            if len(res) != 1:
                raise report.BenchParseError("expected one size, got %d"
                                             % len(res), source=source)
            ops = simbench.pingpong_messages(res[0]["reps"])
            model = res[0]["lat_us"]
        elif bench["prog"] == "sim_barrier":
            res = report.parse_barrier_output(out, source)
            ops = res["reps"] + simbench.bench_warmup_reps(res["reps"])
            model = res["us_per_barrier"]
        else:
            res = simbench.parse_stencil_output(out, source)
            ops = res["iterations"]
            if res["time_s"] is not None and res["iterations"]:
                model = res["time_s"] * 1e3 / res["iterations"]
        pt = simbench.speed_point(secs, rep, ops)
        pt["model_value"] = model
        pt["program"] = res
        pt["report"] = rep
        pt["summary"] = simbench.parse_sim_summary(err)
        return pt
    return parse


def suite_sim_speed(ctx):
    """Speed of the sim backend (default compute model): pingpong 32 B and
    1 MiB, the 48-core stencil and barrier; host time / chip time."""
    a = ctx.args
    sim = ctx.impls.get("sim")
    benches = [dict(b, prog="sim_" + b["prog"])
               for b in simbench.speed_benches(a.quick)]
    raw = {b["key"]: [] for b in benches}
    rounds = a.sim_rounds
    for rnd in range(1, rounds + 1):
        for b in benches:
            if sim is None or not sim.has(b["prog"]):
                if rnd == 1:
                    why = sim.reason if sim is not None else "no sim"
                    _not_run(ctx, "sim-speed", why, b["key"])
                continue
            suite = "sim-speed %s" % b["key"]
            if ctx.gave_up(sim, suite):
                continue
            rpath = _sim_report_path(ctx, "%s.r%d.json" % (b["key"], rnd))
            raw[b["key"]].append(ctx.run_bench(
                sim, b["prog"], suite, b["nues"],
                ["--report", rpath, "--"] + b["argv"], rnd,
                _speed_parser(b, rpath), rounds=rounds, with_stderr=True))
    summary = {k: simbench.aggregate_speed(
        [r["results"] for r in recs if r["ok"]]) for k, recs in raw.items()}
    verdicts = simbench.speed_verdicts(benches, summary)
    compute = sorted({r["results"]["report"]["compute_model"]
                      for recs in raw.values() for r in recs if r["ok"]}
                     - {None})
    hsrc = sorted({r["results"]["report"]["handovers_source"]
                   for recs in raw.values() for r in recs if r["ok"]}
                  - {None})
    notes = [
        "host s: wall time of the whole `rck run` (launch included); chip "
        "s: simulated_seconds of the sim's JSON report; Mcycles per host s: "
        "simulated cycles / host s; compute model: %s."
        % (", ".join(compute) or "?"),
        "hand-overs: %s; per message (pingpong: 2 x (reps + warm-up)), per "
        "iteration (stencil), per barrier (barrier; warm-up included)."
        % (", ".join(hsrc) or "not in the report"),
        "model figure: the program's own timing in virtual time (RCCE_wtime)."
        " %d round(s)." % rounds,
    ]
    table = ("sim speed [%d rounds; median and min]\n" % rounds
             + simbench.speed_table(benches, summary) + "\n"
             + "\n".join(notes))
    rows = []
    for b in benches:
        for metric, agg in summary[b["key"]].items():
            is_ratio = metric == "ratio" and b.get("target") is not None
            status = ""
            if is_ratio:
                status = "MET" if agg["median"] <= b["target"] else "NOT MET"
            rows.append({"suite": "sim-speed", "metric": metric,
                         "unit": {"host_s": "s", "chip_s": "s",
                                  "ratio": "host/chip",
                                  "cycles_per_host_s": "cycles/s",
                                  "handovers": "count",
                                  "handovers_per_op": "per " + b["op"],
                                  "model_value": b.get("model_unit", "")
                                  }.get(metric, ""),
                         "point": b["key"], "lower_is_better": "",
                         "ours": "sim", "ours_median": agg["median"],
                         "ours_min": agg["min"], "ours_max": agg["max"],
                         "ours_n": agg["n"],
                         "ref": "target" if is_ratio else "",
                         "ref_median": b["target"] if is_ratio else None,
                         "status": status})
    speed_rows = [{"benchmark": r["point"],
                   "label": next(b["label"] for b in benches
                                 if b["key"] == r["point"]),
                   "metric": r["metric"], "median": r["ours_median"],
                   "min": r["ours_min"], "max": r["ours_max"],
                   "n": r["ours_n"], "target": r["ref_median"],
                   "status": r["status"], "unit": r["unit"]} for r in rows]
    plots = [("sim_speed.png", lambda path: _plots().plot_speed(
        benches, summary, path, "%d rounds on %d CPUs; compute model %s"
        % (rounds, os.cpu_count() or 0, ", ".join(compute) or "?")))]
    files = [("sim-speed.csv", lambda path: write_dict_csv(
        path, SPEED_CSV_FIELDS, speed_rows))]
    data = {"params": {"rounds": rounds, "quick": bool(a.quick),
                       "benchmarks": benches},
            "raw": raw, "summary": summary, "notes": notes}
    return SuiteResult("sim-speed", data, [table], verdicts, rows, plots,
                       files)


IRCCE_CSV_FIELDS = ["backend", "metric", "unit", "size", "rcce_median",
                    "rcce_min", "rcce_max", "isend_median", "isend_min",
                    "isend_max", "ssend_median", "ssend_min", "ssend_max",
                    "isend_over_rcce", "ssend_over_rcce", "rounds"]


def _ircce_csv(rows, backend, unit, rounds):
    out = []
    for r in rows:
        d = {"backend": backend, "metric": r["metric"], "unit": unit,
             "size": r["size"], "rounds": rounds,
             "isend_over_rcce": r.get("ratio_isend"),
             "ssend_over_rcce": r.get("ratio_ssend")}
        for m in collbench.IRCCE_MODES:
            a = r.get(m) or {}
            for st in ("median", "min", "max"):
                d["%s_%s" % (m, st)] = a.get(st)
        out.append(d)
    return out


def suite_ircce(ctx):
    """iRCCE (isend/irecv+wait, pipelined ssend/srecv) against RCCE
    send/recv: pingpong latency and bandwidth, 8 B .. 4 MiB, 2 UEs; native
    (interleaved rounds) and sim (cycles, compute model none)."""
    a = ctx.args
    modes = collbench.IRCCE_MODES
    rounds = a.ircce_rounds
    min_size = max(a.min_size, 8)
    raw = {m: [] for m in modes}
    rck = ctx.impls.get("rockcreek")
    if rck is None or not rck.has("ircce"):
        _not_run(ctx, "ircce", rck.reason if rck else "no rockcreek")
    else:
        base = ["-s", str(a.max_size), "-m", str(min_size),
                "-r", repr(a.reps_scale)]
        for rnd in range(1, rounds + 1):
            # Rotate the order of the three modes from round to round.
            order = modes[(rnd - 1) % 3:] + modes[:(rnd - 1) % 3]
            for m in order:
                suite = "ircce %s" % m
                if not ctx.gave_up(rck, suite):
                    raw[m].append(ctx.run_bench(
                        rck, "ircce", suite, 2, ["-M", m] + base, rnd,
                        report.parse_pingpong_output, rounds=rounds,
                        timeout=min(a.timeout, 60)))
    lat = {m: report.aggregate_rounds(_ok_results(r), "size", "lat_us")
           for m, r in raw.items()}
    bw = {m: report.aggregate_rounds(_ok_results(r), "size", "bw_mbs")
          for m, r in raw.items()}
    lat_rows = collbench.ircce_rows(lat, "lat_us", True)
    bw_rows = collbench.ircce_rows(bw, "bw_mbs", False)
    slow = sorted(round(r["seconds"], 1) for recs in raw.values()
                  for r in recs if r["seconds"] > 10)
    tables = []
    if lat_rows:
        tables += [
            collbench.ircce_table(lat_rows, "ircce (native, %d rounds): "
                                  "one-way latency" % rounds, "us"),
            collbench.ircce_table(bw_rows, "ircce (native): bandwidth",
                                  "MB/s = 10^6 B/s") +
            "\nratio = iRCCE mode / RCCE send-recv of the medians (latency:"
            " below 1 is faster; bandwidth: above 1 is faster)" +
            ("\nnote: %d run(s) took over 10 s (%s s) although their timed "
             "loops are far shorter: a stall outside the timed loop." %
             (len(slow), ", ".join("%.1f" % x for x in slow))
             if slow else "")]
    # sim: one run per mode, compute model none, RCCE_wtime -> cycles.
    sim = ctx.impls.get("sim")
    sim_runs = {}
    sim_pts = {}
    if sim is None or not sim.has("sim_ircce"):
        _not_run(ctx, "ircce", sim.reason if sim else "no sim", "sim")
    else:
        for m in modes:
            rpath = _sim_report_path(ctx, "ircce-%s.json" % m)

            def parse(out, err, secs, source=None, rpath=rpath):
                res = report.parse_pingpong_output(out, source)
                return {"program": res, "report": _read_sim_report(rpath)}
            rec = ctx.run_bench(
                sim, "sim_ircce", "ircce sim %s" % m, 2,
                ["--compute", "none", "--report", rpath, "--", "-M", m,
                 "-s", str(a.max_size), "-m", str(min_size),
                 "-r", repr(a.sim_reps_scale), "-w"], 1, parse, rounds=1,
                with_stderr=True, timeout=min(a.timeout, 300))
            sim_runs[m] = rec
            if rec["ok"]:
                sim_pts[m] = collbench.sim_pingpong_cycles(
                    rec["results"]["program"])
    sim_lat = {m: {s: collbench.single(v["lat_cycles"]) for s, v in p.items()}
               for m, p in sim_pts.items()}
    sim_bw = {m: {s: collbench.single(v["bw_mbs"]) for s, v in p.items()}
              for m, p in sim_pts.items()}
    sim_lat_rows = collbench.ircce_rows(sim_lat, "lat_cycles", True)
    sim_bw_rows = collbench.ircce_rows(sim_bw, "bw_mbs", False)
    if sim_lat_rows:
        tables.append(
            collbench.ircce_table(sim_lat_rows, "ircce (sim, compute none, "
                                  "one deterministic run each): one-way "
                                  "latency", "core cycles at 533 MHz",
                                  with_best=False) + "\n" +
            collbench.ircce_table(sim_bw_rows, "ircce (sim): bandwidth",
                                  "MB/s of chip time", with_best=False) +
            "\ncycles: the program's RCCE_wtime one-way latency x 533 MHz")
    csv_rows = (_ircce_csv(lat_rows, "native", "us", rounds)
                + _ircce_csv(bw_rows, "native", "MB/s", rounds)
                + _ircce_csv(sim_lat_rows, "sim", "cycles", 1)
                + _ircce_csv(sim_bw_rows, "sim", "MB/s", 1))
    rows = []
    for m in ("isend", "ssend"):
        rows += csv_rows_for("ircce", "lat_us_" + m, "us", True, m,
                             lat.get(m, {}), "rcce", lat.get("rcce", {}))
        rows += csv_rows_for("ircce", "bw_mbs_" + m, "MB/s", False, m,
                             bw.get(m, {}), "rcce", bw.get("rcce", {}))
        rows += csv_rows_for("ircce", "sim_lat_cycles_" + m, "cycles", True,
                             m, sim_lat.get(m, {}), "rcce",
                             sim_lat.get("rcce", {}))
    labels = collbench.IRCCE_LABELS
    note = "%d native rounds; sim: compute none, 533 MHz" % rounds
    plots = [("ircce.png", lambda path: _plots().plot_ircce(
        {labels[m]: s for m, s in lat.items() if s},
        {labels[m]: s for m, s in bw.items() if s},
        {labels[m]: {k: v["median"] for k, v in s.items()}
         for m, s in sim_lat.items() if s}, path, note))]
    files = [("ircce.csv", lambda path: write_dict_csv(
        path, IRCCE_CSV_FIELDS, csv_rows))]
    data = {"params": {"ues": 2, "max_size": a.max_size,
                       "min_size": min_size, "reps_scale": a.reps_scale,
                       "sim_reps_scale": a.sim_reps_scale, "rounds": rounds},
            "raw": raw, "summary": {"lat_us": lat, "bw_mbs": bw},
            "ratios": {"lat_us": lat_rows, "bw_mbs": bw_rows},
            "sim": {"runs": sim_runs, "lat_cycles": sim_lat_rows,
                    "bw_mbs": sim_bw_rows},
            "slow_runs_s": slow}
    return SuiteResult("ircce", data, tables, [], rows, plots, files)


COLL_CSV_FIELDS = ["backend", "collective", "ues", "size", "unit",
                   "median", "min", "max", "n", "mpi_collective",
                   "mpi_median", "mpi_min", "mpi_max", "ratio_median",
                   "ratio_min", "ratio_comm_over_rcce"]


def suite_collectives(ctx):
    """Every RCCE and RCCE_comm collective at 2..48 UEs, 64 B and 64 KiB
    blocks: native in us beside Open MPI's (interleaved rounds), sim in
    cycles (compute model none)."""
    a = ctx.args
    ues_list = a.coll_ues
    sizes = ",".join(str(s) for s in a.coll_sizes)
    rounds = a.coll_rounds
    impls = ctx.available("coll")
    raw = {i.name: [] for i in impls}
    for rnd in range(1, rounds + 1):
        per = {i.name: [] for i in impls}
        for n in ues_list:
            for impl in ctx.order(rnd, impls):
                suite = "collectives %d UEs" % n
                if ctx.gave_up(impl, "collectives"):
                    continue
                rec = ctx.run_bench(
                    impl, "coll", suite, n,
                    ["-s", sizes, "-r", repr(a.coll_reps_scale)], rnd,
                    collbench.parse_coll_output, rounds=rounds,
                    timeout=min(a.timeout, 240))
                rec["ues"] = n
                per[impl.name].append(rec)
        for name, recs in per.items():
            raw[name].append(recs)

    def summary_of(name):
        return collbench.aggregate_coll(
            [[p for rec in recs if rec["ok"] for p in rec["results"]]
             for recs in raw.get(name, [])])
    ours = summary_of("rockcreek")
    ref = summary_of("openmpi")
    rows = collbench.coll_rows(ours, ref)
    tables = []
    if rows:
        tables.append(collbench.coll_table(
            rows, "collectives (native, %d rounds, us per call)" % rounds))
    # sim: one run per UE count.
    sim = ctx.impls.get("sim")
    sim_runs = []
    sim_points = []
    if sim is None or not sim.has("sim_coll"):
        _not_run(ctx, "collectives", sim.reason if sim else "no sim", "sim")
    else:
        for n in ues_list:
            rpath = _sim_report_path(ctx, "coll-%d.json" % n)

            def parse(out, err, secs, source=None, rpath=rpath):
                return {"program": collbench.parse_coll_output(out, source),
                        "report": _read_sim_report(rpath)}
            rec = ctx.run_bench(
                sim, "sim_coll", "collectives sim %d UEs" % n, n,
                ["--compute", "none", "--report", rpath, "--", "-s", sizes,
                 "-r", repr(a.coll_sim_reps_scale), "-w"], 1, parse,
                rounds=1, with_stderr=True, timeout=min(a.timeout, 300))
            rec["ues"] = n
            sim_runs.append(rec)
            if rec["ok"]:
                sim_points += rec["results"]["program"]
    sim_rows = collbench.sim_coll_rows(sim_points)
    if sim_rows:
        tables.append(collbench.sim_coll_table(
            sim_rows, "collectives (sim, compute none, one run per UE count;"
            " RCCE_wtime x 533 MHz)"))
    csv_rows = []
    for r in rows:
        o, t = r["ours"], r["ref"] or {}
        csv_rows.append({
            "backend": "native", "collective": r["coll"], "ues": r["ues"],
            "size": r["size"], "unit": "us", "median": o["median"],
            "min": o["min"], "max": o["max"], "n": o["n"],
            "mpi_collective": (collbench.mpi_name(r["mpi_coll"]) if t
                               else None),
            "mpi_median": t.get("median"), "mpi_min": t.get("min"),
            "mpi_max": t.get("max"), "ratio_median": r["ratio_median"],
            "ratio_min": r["ratio_min"]})
    for r in sim_rows:
        csv_rows.append({
            "backend": "sim", "collective": r["coll"], "ues": r["ues"],
            "size": r["size"], "unit": "cycles", "median": r["cycles"],
            "min": r["cycles"], "max": r["cycles"], "n": 1,
            "ratio_comm_over_rcce": r["ratio_vs_rcce"]})
    main_rows = csv_rows_for("collectives", "us_per_call", "us", True,
                             "rockcreek", ours, "openmpi",
                             {r["key"]: r["ref"] for r in rows if r["ref"]})
    plots = [("collectives.png", lambda path: _plots().plot_collectives(
        rows, sim_rows, path, "%d native rounds; sim: compute none"
        % rounds))]
    files = [("collectives.csv", lambda path: write_dict_csv(
        path, COLL_CSV_FIELDS, csv_rows))]
    data = {"params": {"ues": ues_list, "sizes": a.coll_sizes,
                       "rounds": rounds, "reps_scale": a.coll_reps_scale,
                       "sim_reps_scale": a.coll_sim_reps_scale},
            "raw": raw, "summary": {"rockcreek": ours, "openmpi": ref},
            "rows": rows, "sim": {"runs": sim_runs, "rows": sim_rows}}
    return SuiteResult("collectives", data, tables, [], main_rows, plots,
                       files)


# ---------------------------------------------------------------------------
# Suites of the interrupt-driven libraries: svm (the Laplace solver of the
# MetalSVM evaluation) and mbox (mailbox round trips, notification cost).

def make_native(args, programs, label="rockcreek (native)"):
    """rockcreek on the native backend for programs that make_rockcreek does
    not list (it needs all of its own). A run's arguments are [rck run
    options..., "--", program args...]."""
    rck = os.path.join(args.build_dir, "src", "tools", "rck")

    def launch(prog, nproc, prog_args):
        opts, pargs = _split_launcher_args(prog_args)
        return ([rck, "run", "-n", str(nproc), "--backend", "native",
                 "--no-prefix"] + opts + ["--", prog] + pargs)

    have = {k: p for k, p in programs.items() if os.access(p, os.X_OK)}
    missing = sorted(p for k, p in programs.items() if k not in have)
    if not os.access(rck, os.X_OK):
        return Impl("native", label, {}, launch, False, "not built: " + rck)
    return Impl("native", label, have, launch, bool(have),
                "not built: %s" % ", ".join(missing) if missing else "")


def _read_sim_doc(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise report.BenchParseError("no readable sim report %s: %s"
                                     % (path, e)) from None


def _laplace_has_svm(prog, args):
    """Whether the laplace program was built with the SVM versions: a
    one-UE run of -v lazy on a tiny grid (exit 2 and a message if not).
    Returns (True, "") or (False, why)."""
    rck = os.path.join(args.build_dir, "src", "tools", "rck")
    rc, out, err, _ = run_process(
        [rck, "run", "-n", "1", "--backend", "native", "--no-prefix", "--",
         prog, "-v", "lazy", "-r", "8", "-c", "8", "-i", "1"], 60)
    if rc == 0:
        return True, ""
    text = (err.strip().splitlines() or out.strip().splitlines() or [""])
    why = next((ln for ln in text if "SVM" in ln), text[-1])
    return False, ("the SVM versions do not run (%s): %s"
                   % ("timed out" if rc is None else "exit %d" % rc, why))


def suite_svm(ctx):
    """The Laplace solver of the MetalSVM evaluation on the sim backend:
    SVM strong and lazy (pages on 1 or 4 memory controllers) and iRCCE, 1
    to 48 cores; chip time, speedup, ratio to iRCCE."""
    a = ctx.args
    plan = svmbench.laplace_plan(a.quick, a.svm_cores, a.svm_rows,
                                 a.svm_cols, a.svm_iters, a.svm_timeout)
    configs = [svmbench.laplace_config(k) for k in a.svm_configs] \
        if a.svm_configs else list(svmbench.LAPLACE_CONFIGS)
    sim = ctx.impls.get("sim")
    runs = []
    points = []
    skipped = {}       # configuration -> why none of its runs was made
    skipped_runs = {}  # configuration -> why its larger core counts were not
    if sim is None or not sim.has("sim_laplace"):
        why = ("no sim implementation" if sim is None else
               sim.reason if not sim.available else
               "%s is not built (apps/laplace, built with the examples)"
               % os.path.join(a.build_dir, "apps", "laplace", "laplace"))
        _not_run(ctx, "svm", why, "laplace")
    else:
        if any(c["version"] != "ircce" for c in configs):
            ok, why = _laplace_has_svm(sim.programs["sim_laplace"], a)
            if not ok:
                for c in configs:
                    if c["version"] != "ircce":
                        skipped[c["key"]] = why
                log("svm laplace SVM versions: NOT RUN: %s" % why)
                if a.suite and "svm" in a.suite and not a.svm_allow_no_svm:
                    ctx.failures.append("svm laplace SVM versions not run: "
                                        + why)
        todo = [c for c in configs if c["key"] not in skipped]
        nruns = len(todo) * len(plan["cores"])
        i = 0
        # After a run of a configuration that timed out or failed, its
        # larger core counts are skipped: they would cost the same or more.
        stopped = {}
        for n in plan["cores"]:
            for c in todo:
                suite = "svm laplace %s" % c["key"]
                i += 1
                if c["key"] in stopped:
                    continue
                rpath = _sim_report_path(ctx, "laplace-%s-%d.json"
                                         % (c["key"], n))

                def parse(out, err, secs, source=None, rpath=rpath):
                    res = svmbench.parse_laplace_output(out, source)
                    doc = _read_sim_doc(rpath)
                    rep = simbench.parse_sim_report(doc)
                    if rep["ended"] not in (None, "ok"):
                        raise report.BenchParseError("sim run ended: %s"
                                                     % rep["ended"])
                    glitch = svmbench.compute_glitch(doc)
                    if glitch:
                        raise report.BenchParseError(glitch, source=source)
                    res["host_s"] = round(secs, 3)
                    res["chip_s"] = rep["simulated_seconds"]
                    res["compute_model"] = rep["compute_model"]
                    res["breakdown"] = svmbench.sim_breakdown(doc)
                    return res

                rec = ctx.run_bench(
                    sim, "sim_laplace", "%s, %d cores (%d/%d)"
                    % (suite, n, i, nruns), n,
                    ["--compute", a.svm_compute, "--report", rpath, "--"]
                    + svmbench.laplace_args(c, plan), 1, parse, rounds=1,
                    with_stderr=True, timeout=min(a.timeout,
                                                  plan["timeout"]))
                rec["config"] = c["key"]
                rec["ues"] = n
                runs.append(rec)
                if rec["ok"]:
                    points.append(rec["results"])
                elif rec["returncode"] != 0:
                    # timed out or crashed (not a figure we could not use)
                    stopped[c["key"]] = n
                    later = [m for m in plan["cores"] if m > n]
                    if later:
                        log("    skipping %s on %s cores" % (
                            c["key"], ",".join(str(m) for m in later)))
        for k, n in sorted(stopped.items()):
            later = [m for m in plan["cores"] if m > n]
            skipped_runs[k] = "the run on %d cores failed (%s)%s" % (
                n, next(r.get("error", "?") for r in runs
                        if r["config"] == k and r["ues"] == n),
                "; not run on %s cores" % ",".join(str(m) for m in later)
                if later else "")
    rows = svmbench.laplace_rows(points, configs)
    verdicts = [svmbench.checksum_verdict(rows)]
    compute = sorted({p.get("compute_model") for p in points} - {None})
    notes = [
        "sim backend, compute model %s (program code is charged as host "
        "CPU time scaled to a 533 MHz P54C: not deterministic, a busy host "
        "shifts it a little); SVM faults, mails, flushes and the DRAM "
        "traffic of the pages are modelled cycles." % (
            ", ".join(compute) or a.svm_compute),
        "time: the slowest UE's RCCE_wtime (virtual time) around the %d "
        "timed iterations; every iteration ends with a barrier "
        "(svm_barrier; RCCE_barrier for iRCCE)." % plan["iters"],
    ]
    for why in sorted(set(skipped.values())):
        notes.append("%s: not run: %s" % (", ".join(
            k for k in sorted(skipped) if skipped[k] == why), why))
    for k, why in sorted(skipped_runs.items()):
        notes.append("%s: %s" % (k, why))
    notes += svmbench.mc_spread_notes(rows, configs)
    bad = [r for r in runs if not r["ok"] and r["returncode"] == 0]
    if bad:
        notes.append("runs left out (their output could not be used): %s"
                     % "; ".join("%s on %d cores: %s" % (
                         r["config"], r["ues"], r.get("error", "?"))
                         for r in bad))
    tables = [svmbench.laplace_table(rows, configs, "svm: Laplace solver")
              + "\n" + "\n".join(notes)]
    ircce = {r["ues"]: r for r in rows if r["config"] == "ircce"}
    csv_rows = []
    for r in rows:
        ref = ircce.get(r["ues"]) if r["config"] != "ircce" else None
        csv_rows.append({
            "suite": "svm", "metric": "laplace_ms_per_iter", "unit": "ms",
            "point": "%s@%d" % (r["config"], r["ues"]),
            "lower_is_better": 1, "ours": r["label"],
            "ours_median": r["ms_per_iter"], "ours_min": r["ms_per_iter"],
            "ours_max": r["ms_per_iter"], "ours_n": 1,
            "ref": "iRCCE" if ref else "",
            "ref_median": ref["ms_per_iter"] if ref else None,
            "ref_n": 1 if ref else None,
            "ratio_median": r["vs_ircce"] if ref else None,
            "note": "speedup %.3f over %d core(s)" % (r["speedup"],
                                                      r["base_ues"])
            if r["speedup"] is not None else ""})
    note = ("sim backend (compute %s); %d x %d grid, %d iterations"
            % (", ".join(compute) or a.svm_compute, plan["rows"],
               plan["cols"], plan["iters"]))
    plots = [("svm_laplace.png", lambda path: svmbench.plot_laplace(
        rows, path, note, configs))] if rows else []
    files = [("svm-laplace.csv", lambda path: write_dict_csv(
        path, svmbench.LAPLACE_CSV_FIELDS, svmbench.laplace_csv_rows(rows)))]
    data = {"params": dict(plan, configs=[c["key"] for c in configs],
                           compute=a.svm_compute),
            "runs": runs, "rows": rows, "skipped": skipped,
            "skipped_runs": skipped_runs, "notes": notes}
    return SuiteResult("svm", data, tables, verdicts, csv_rows, plots, files)


def _chan_program(args):
    """The notification benchmark of bench/chan, if it is built: the
    executable in BUILD/bench/chan (the one named CHAN_PROGRAM if there are
    several). Returns (path or None, why not)."""
    d = os.path.join(args.build_dir, "bench", "chan")
    if not os.path.isdir(os.path.join(SOURCE_DIR, "bench", "chan")):
        return None, "bench/chan missing"
    try:
        names = sorted(n for n in os.listdir(d)
                       if os.path.isfile(os.path.join(d, n)) and
                       os.access(os.path.join(d, n), os.X_OK))
    except OSError:
        names = []
    if CHAN_PROGRAM in names:
        return os.path.join(d, CHAN_PROGRAM), ""
    if len(names) == 1:
        return os.path.join(d, names[0]), ""
    if not names:
        return None, "bench/chan is not built (%s)" % d
    return None, "bench/chan has several programs (%s), none named %s" % (
        ", ".join(names), CHAN_PROGRAM)


CHAN_PROGRAM = "chan_bench"


def _two_core_run(ctx, impl, bench, suite, core, prog_args, round_no,
                  parse, rounds):
    """One round of a two-UE benchmark of the mbox suite on cores 0 and
    ``core`` (its --cores option goes before prog_args); None, and no run,
    once the suite has failed too often on impl."""
    if ctx.gave_up(impl, suite):
        return None
    return ctx.run_bench(
        impl, bench, "%s, cores 0,%d" % (suite, core), 2,
        ["--cores", "0,%d" % core] + prog_args, round_no, parse,
        rounds=rounds, timeout=min(ctx.args.timeout, 120))


def suite_mbox(ctx):
    """Mailbox round trips between core 0 and cores 0..8 hops away,
    handler-driven and polled (sim cycles beside the published interrupt
    costs; native us), and the notification cost of ring, tree and polling
    (bench/chan)."""
    a = ctx.args
    plan = svmbench.mbox_plan(a.quick, a.mbox_rounds)
    sim = ctx.impls.get("sim")
    tables = []
    sim_runs, sim_points = [], []
    if sim is None or not sim.has("sim_mbox"):
        why = ("no sim implementation" if sim is None else
               sim.reason if not sim.available else
               "bench/mbox/mbox_pingpong is not built (needs src/mbox)")
        _not_run(ctx, "mbox", why, "sim")
    else:
        for mode in svmbench.MBOX_MODES:
            for core in plan["sim_cores"]:
                rec = _two_core_run(
                    ctx, sim, "sim_mbox", "mbox sim %s" % mode, core,
                    ["--compute", "none", "--report", "none", "--", "-m",
                     mode, "-r", str(plan["sim_reps"])], 1,
                    svmbench.parse_mbox_output, 1)
                if rec is None:
                    continue
                rec["mode"], rec["peer_core"] = mode, core
                sim_runs.append(rec)
                if rec["ok"]:
                    sim_points += rec["results"]
    native = make_native(a, {"mbox": os.path.join(
        a.build_dir, "bench", "mbox", "mbox_pingpong")})
    native_raw = []
    rounds = plan["native_rounds"]
    if not native.has("mbox"):
        _not_run(ctx, "mbox", native.reason, "native")
    else:
        for rnd in range(1, rounds + 1):
            per = []
            for mode in (svmbench.MBOX_MODES if rnd % 2 else
                         list(reversed(svmbench.MBOX_MODES))):
                for core in plan["native_cores"]:
                    rec = _two_core_run(
                        ctx, native, "mbox", "mbox native %s" % mode, core,
                        ["--", "-m", mode, "-r", str(plan["native_reps"])],
                        rnd, svmbench.parse_mbox_output, rounds)
                    if rec is not None:
                        per.append(rec)
            native_raw.append(per)
    sim_rows = svmbench.mbox_sim_rows(sim_points)
    native_rows = svmbench.mbox_native_rows(
        [[p for rec in per if rec["ok"] for p in rec["results"]]
         for per in native_raw])
    ref_rows = svmbench.mbox_reference_rows(sim_rows)
    if sim_rows:
        tables.append(svmbench.mbox_sim_table(sim_rows))
        tables.append(svmbench.mbox_reference_table(ref_rows))
    if native_rows:
        tables.append(svmbench.mbox_native_table(native_rows, rounds))
    verdicts = [svmbench.mbox_verdict(ref_rows)]

    # Notification cost (bench/chan/chan_bench): sim and native.
    chan_prog, why = _chan_program(a)
    chan_plan = svmbench.chan_plan(a.quick)
    chan_runs = []
    if chan_prog is None:
        # Another library's benchmark that may not exist yet: reported,
        # never a failure of this suite.
        log("mbox notify: NOT RUN: %s" % why)
        tables.append("notification cost (ring vs tree vs polling): not "
                      "run: %s" % why)
    else:
        csim = Impl("sim", "rockcreek (sim backend)", {"chan": chan_prog},
                    sim._launch if sim else None,
                    sim is not None and sim.available,
                    sim.reason if sim else "no sim implementation")
        cnat = make_native(a, {"chan": chan_prog})
        todo = []
        if csim.available:
            todo += [(csim, core, ["--compute", "none", "--report",
                                   "none"], 1)
                     for core in chan_plan["sim_cores"]]
        else:
            _not_run(ctx, "mbox", csim.reason, "notify sim")
        if cnat.has("chan"):
            todo += [(cnat, core, [], rnd)
                     for rnd in range(1, rounds + 1)
                     for core in chan_plan["native_cores"]]
        else:
            _not_run(ctx, "mbox", cnat.reason, "notify native")
        for impl, core, opts, rnd in todo:
            rec = _two_core_run(
                ctx, impl, "chan", "mbox notify %s" % impl.name, core,
                opts + ["--"], rnd, svmbench.parse_chan_output,
                1 if impl is csim else rounds)
            if rec is None:
                continue
            rec["backend"], rec["peer_core"] = impl.name, core
            chan_runs.append(rec)
    # Native rounds: the best round of each (hops, kind), by round trip.
    chan_ok = [r["results"] for r in chan_runs if r["ok"]]
    notify_rows, tput_rows = svmbench.chan_rows(chan_ok)
    notify_rows = svmbench.chan_best(notify_rows, "rtt_cycles", min)
    tput_rows = svmbench.chan_best(tput_rows, "mib_s", max)
    if notify_rows:
        tables.append(svmbench.chan_notify_table(notify_rows) + (
            "\nnative: the best of %d round(s) by round trip" % rounds
            if any(r["backend"] == "native" for r in notify_rows) else ""))
    if tput_rows:
        tables.append(svmbench.chan_tput_table(tput_rows))
    csv_rows = []
    pub = {"handler": svmbench.PUBLISHED_IRQ["ipi_delivery_min"]}
    for r in sim_rows:
        for m in svmbench.MBOX_METRICS:
            ref = pub.get(r["mode"]) if m == "oneway" else None
            csv_rows.append({
                "suite": "mbox", "metric": "sim_%s_cycles" % m,
                "unit": "cycles", "point": "%s@%dhops" % (r["mode"],
                                                          r["hops"]),
                "lower_is_better": 1, "ours": "sim (compute none)",
                "ours_median": r[m], "ours_min": r[m], "ours_max": r[m],
                "ours_n": 1,
                "ref": "published ipi_delivery_min" if ref else "",
                "ref_median": ref, "ratio_median": report.ratio(r[m], ref),
                "note": "published value is a lower bound" if ref else ""})
    for r in native_rows:
        for m in svmbench.MBOX_METRICS:
            g = r[m]
            csv_rows.append({
                "suite": "mbox", "metric": "native_%s_us" % m, "unit": "us",
                "point": "%s@core%d" % (r["mode"], r["peer_core"]),
                "lower_is_better": 1, "ours": "native",
                "ours_median": g["median"], "ours_min": g["min"],
                "ours_max": g["max"], "ours_n": g["n"]})
    for r in ref_rows:
        csv_rows.append({
            "suite": "mbox", "metric": "reference", "unit": "cycles",
            "point": r["name"], "lower_is_better": "", "ours": "sim",
            "ours_median": r["ours"], "ours_n": 1 if r["ours"] is not None
            else 0, "ref": r["published_text"], "ref_median": r["published"],
            "ratio_median": r["ratio"], "status": r["status"],
            "note": r["note"]})
    for r in notify_rows:
        for m in ("oneway_cycles", "rtt_cycles", "notify_send_cycles",
                  "notify_rx_cycles"):
            csv_rows.append({
                "suite": "mbox", "metric": "notify_" + m, "unit": "cycles",
                "point": "%s@%s:%shops" % (r["kind"], r["backend"],
                                           r["hops"]),
                "lower_is_better": 1, "ours": r["backend"],
                "ours_median": r.get(m), "ours_min": r.get(m),
                "ours_max": r.get(m), "ours_n": r.get("n", 1)})
    for r in tput_rows:
        csv_rows.append({
            "suite": "mbox", "metric": "chan_tput_mib_s", "unit": "MiB/s",
            "point": "%s.%s@%s:%shops" % (r["kind"], r["size"], r["backend"],
                                         r["hops"]),
            "lower_is_better": 0, "ours": r["backend"],
            "ours_median": r["mib_s"], "ours_n": r.get("n", 1)})
    plots = []
    if sim_rows or native_rows:
        plots.append(("mbox.png", lambda path: svmbench.plot_mbox(
            sim_rows, native_rows, path, "sim: compute none; native: %d "
            "round(s)" % rounds)))
    if notify_rows:
        plots.append(("notify.png", lambda path: svmbench.plot_chan(
            notify_rows, path, "sim: compute none; native: best of %d "
            "round(s)" % rounds)))
    mbox_csv = [dict(backend="sim", unit="cycles", **{
        k: r[k] for k in ("mode", "hops", "peer_core")},
        **{m: r[m] for m in svmbench.MBOX_METRICS}) for r in sim_rows]
    mbox_csv += [dict(backend="native", unit="us", n=r["n"], **{
        k: r[k] for k in ("mode", "hops", "peer_core")},
        **{m: r[m]["median"] for m in svmbench.MBOX_METRICS},
        **{m + "_best": r[m]["min"] for m in svmbench.MBOX_METRICS})
        for r in native_rows]
    files = [("mbox.csv", lambda path: write_dict_csv(
        path, MBOX_CSV_FIELDS, mbox_csv))]
    data = {"params": plan, "sim": {"runs": sim_runs, "rows": sim_rows},
            "native": {"runs": native_raw, "rows": native_rows},
            "reference": ref_rows,
            "notify": {"program": chan_prog, "why_not": why or None,
                       "runs": chan_runs, "rows": notify_rows,
                       "tput": tput_rows}}
    return SuiteResult("mbox", data, tables, verdicts, csv_rows, plots,
                       files)


MBOX_CSV_FIELDS = ["backend", "unit", "mode", "hops", "peer_core", "n",
                   "oneway", "oneway_min", "rtt", "send", "oneway_best",
                   "oneway_min_best", "rtt_best", "send_best"]


def suite_native_load(ctx):
    """2-UE RCCE pingpong on native, quiet and with 48 busy processes
    beside it, interleaved (target: within 3x of quiet)."""
    return loadbench.suite(ctx, sys.modules[__name__])


def suite_snet(ctx):
    """librcksnet's per-record cost on one core (python/src/rockcreek/
    bench/snetbench.py, docs/SNET.md)."""
    return snetbench.suite(ctx, sys.modules[__name__])


def suite_ip(ctx):
    """IP between two cores: stream (TCP, bypass) and UDP throughput and
    latency beside RCCE's pingpong, in a network namespace
    (python/src/rockcreek/bench/ipbench.py, docs/IP.md)."""
    return ipbench.suite(ctx, sys.modules[__name__])


def suite_msglog(ctx):
    """2-UE RCCE pingpong on native with the message log off and on
    (python/src/rockcreek/bench/msglogbench.py)."""
    return msglogbench.suite(ctx, sys.modules[__name__])


# name -> function(ctx) -> SuiteResult, run in this order.
def suite_mpi_backend(ctx):
    """RCCE on the mpi backend vs the MPI it runs on (python/src/rockcreek/bench/
    mpibench.py)."""
    return mpibench.suite(ctx, Impl, SuiteResult, csv_rows_for,
                          _build_mpi_program, SOURCE_DIR)


def suite_power(ctx):
    """The sim's power model (docs/POWER.md): dot product and matrix
    multiply on 48 cores at dividers 2..16, power with 1..48 busy cores,
    and the model beside Intel's published 25 W and 125 W points."""
    a = ctx.args
    data, tables, failures = powerbench.run_power(
        a.build_dir, SOURCE_DIR, a.out, a.quick, log)
    if data is None:
        _not_run(ctx, "power", failures[0])
        return SuiteResult("power", {}, [])
    if a.suite and "power" in a.suite:
        ctx.failures.extend(failures)
    rows = [{"suite": "power", "metric": "published point", "unit": "W",
             "point": p["point"], "lower_is_better": "",
             "ours": p["modelled_w"], "ref": p["published_w"],
             "ratio_median": p["ratio"], "status": "",
             "note": "Intel ISSCC 2010"} for p in data["published"]]
    return SuiteResult(
        "power", data, tables, csv_rows=rows,
        plots=[("power.png", lambda path: powerbench.plot_power(data, path))])


def suite_mpi(ctx):
    """rockcreek's MPI on the MPBs: both channels on sim, beside Open MPI
    on native (python/src/rockcreek/bench/rckmpibench.py)."""
    return rckmpibench.suite(ctx, sys.modules[__name__], SuiteResult,
                             csv_rows_for)


def suite_p54c(ctx):
    """The P54C compute model (docs/P54C.md): one core's bandwidths beside
    the published ones, the working-set sweep, the Fiasco.OC copy, 48
    cores streaming against one, the 48-core stencil's speed under host,
    p54c-fast and p54c (python/src/rockcreek/bench/p54cbench.py)."""
    a = ctx.args
    data, tables, verdicts = p54cbench.run_p54c(a.build_dir, a.quick, log)
    if data is None:
        _not_run(ctx, "p54c", tables[0])
        return SuiteResult("p54c", {}, [])
    rows = [{"suite": "p54c", "metric": "bandwidth", "unit": "MiB/s",
             "point": b["kernel"], "lower_is_better": "",
             "ours": b["ours_mib_s"], "ref": b["published_mib_s"],
             "ratio_median": b["ratio"], "status": "",
             "note": "published: reference SCC-HARDWARE.md 2.3"}
            for b in data["bandwidth"]]
    return SuiteResult(
        "p54c", data, tables,
        verdicts=[report.Verdict(t, "MET" if ok else "NOT MET", d)
                  for t, ok, d in verdicts],
        csv_rows=rows,
        plots=[("p54c.png", lambda path: p54cbench.plot_p54c(data, path))])


SUITES = {
    "pingpong": suite_pingpong,
    "barrier": suite_barrier,
    "ircce": suite_ircce,
    "collectives": suite_collectives,
    "sim-calibration": suite_sim_calibration,
    "sim-speed": suite_sim_speed,
    "svm": suite_svm,
    "mbox": suite_mbox,
    "native-load": suite_native_load,
    "msglog": suite_msglog,
    "mpi-backend": suite_mpi_backend,
    "power": suite_power,
    "mpi": suite_mpi,
    "p54c": suite_p54c,
    "snet": suite_snet,
    "ip": suite_ip,
    "python": None,  # set below
}


def suite_python(ctx):
    """rockcreek.rcce's pingpong beside C's RCCE, mpi4py on librckmpi and on
    Open MPI beside their C, on native and sim (python/src/rockcreek/bench/pybench.py)."""
    return pybench.suite(ctx, sys.modules[__name__])


SUITES["python"] = suite_python


def _plots():
    # matplotlib is imported only when plotting
    return importlib.import_module(".plots", __package__)


# ---------------------------------------------------------------------------
# Machine information and output files.

def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _command_output(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def machine_info(args):
    info = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "hostname": platform.node(),
        "nproc": os.cpu_count(),
        "cpus_allowed": (len(os.sched_getaffinity(0))
                         if hasattr(os, "sched_getaffinity") else None),
        "cpu_model": report.parse_cpuinfo_model(_read("/proc/cpuinfo")),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "loadavg_start": _read("/proc/loadavg").split()[:3],
        "git_commit": _command_output(["git", "-C", SOURCE_DIR, "rev-parse",
                                       "HEAD"]),
    }
    status = _command_output(["git", "-C", SOURCE_DIR, "status",
                              "--porcelain"])
    info["git_dirty"] = bool(status) if status is not None else None
    if not args.no_mpi and shutil.which(args.mpirun):
        v = _command_output([args.mpirun, "--version"])
        info["openmpi_version"] = v.splitlines()[0] if v else None
    return info


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for row in rows:
            w.writerow({k: ("" if row.get(k) is None else row.get(k))
                        for k in CSV_FIELDS})


def parse_size_arg(text):
    units = {"": 1, "K": 1 << 10, "KI": 1 << 10, "KIB": 1 << 10,
             "M": 1 << 20, "MI": 1 << 20, "MIB": 1 << 20}
    t = text.strip().upper()
    num = t.rstrip("KMIB")
    unit = t[len(num):]
    if not num.isdigit() or unit not in units:
        raise argparse.ArgumentTypeError("bad size %r (e.g. 4096, 64K, 4M)"
                                         % text)
    return int(num) * units[unit]


def build_parser():
    p = argparse.ArgumentParser(
        description="Run rockcreek's benchmarks beside Open MPI, "
        "interleaved, and report medians, ratios and target verdicts.")
    p.add_argument("--build-dir", default=os.path.join(SOURCE_DIR, "build"),
                   help="CMake build directory (default: %(default)s)")
    p.add_argument("--out", help="output directory (default: "
                   "BUILD_DIR/bench-results)")
    p.add_argument("--quick", action="store_true",
                   help="smoke test: 3 rounds, sizes up to 64 KiB, fewer "
                   "repetitions")
    p.add_argument("--suite", action="append", choices=list(SUITES),
                   help="run only this suite (repeatable; default: all)")
    p.add_argument("--list-suites", action="store_true",
                   help="list the suites and exit")
    p.add_argument("--rounds", type=int,
                   help="interleaved rounds (default 10; --quick 3)")
    p.add_argument("--max-size", type=parse_size_arg,
                   help="largest pingpong size (default 4M; --quick 64K)")
    p.add_argument("--min-size", type=parse_size_arg, default=0,
                   help="smallest pingpong size (default 0)")
    p.add_argument("--reps-scale", type=float,
                   help="scale the repetition counts (default 1.0; "
                   "--quick 0.25)")
    p.add_argument("--barrier-ues", type=int, default=48,
                   help="processes in the barrier benchmark (default 48)")
    p.add_argument("--barrier-reps", type=int,
                   help="barriers per run (default 500; --quick 100)")
    p.add_argument("--backend", default="native",
                   help="rockcreek backend of the pingpong and barrier "
                   "suites (default: native; the sim-* suites always use "
                   "sim)")
    p.add_argument("--sim-rounds", type=int,
                   help="rounds of the sim-speed suite (default 3; --quick "
                   "2)")
    p.add_argument("--ircce-rounds", type=int,
                   help="interleaved rounds of the ircce suite (default 5; "
                   "--quick 2)")
    p.add_argument("--sim-reps-scale", type=float,
                   help="repetition scale of the sim pingpongs of the ircce "
                   "suite (default 0.02: deterministic, few are enough)")
    p.add_argument("--coll-ues", type=lambda t: [int(x) for x in
                                                  t.split(",")],
                   help="UE counts of the collectives suite (default "
                   "2,4,8,16,32,48; --quick 2,8,48)")
    p.add_argument("--coll-sizes", type=lambda t: [parse_size_arg(x) for x
                                                    in t.split(",")],
                   help="block sizes of the collectives suite (default "
                   "64,64K; --quick 64,4K)")
    p.add_argument("--coll-rounds", type=int,
                   help="interleaved rounds of the collectives suite "
                   "(default 3; --quick 1)")
    p.add_argument("--coll-reps-scale", type=float,
                   help="repetition scale of the native collectives (default"
                   " 0.5; --quick 0.25)")
    p.add_argument("--coll-sim-reps-scale", type=float,
                   help="repetition scale of the sim collectives (default "
                   "0.05)")
    p.add_argument("--svm-cores", type=lambda t: [int(x) for x in
                                                   t.split(",")],
                   help="core counts of the svm suite's Laplace runs "
                   "(default 1,2,4,8,16,24,32,48; --quick 1,8,48)")
    p.add_argument("--svm-rows", type=int,
                   help="Laplace grid rows (default 1024; --quick 256)")
    p.add_argument("--svm-cols", type=int,
                   help="Laplace grid columns (default 512)")
    p.add_argument("--svm-iters", type=int,
                   help="Laplace iterations (default 3; --quick 2)")
    p.add_argument("--svm-timeout", type=int,
                   help="seconds of host time one Laplace run may take "
                   "(default 150; --quick 45); after a failed or timed-out "
                   "run, the version's larger core counts are skipped")
    p.add_argument("--svm-configs", type=lambda t: t.split(","),
                   help="Laplace versions to run, of strong-mc1, "
                   "strong-mc4, lazy-mc1, lazy-mc4, ircce (default: all)")
    p.add_argument("--svm-compute", default="host",
                   help="sim compute model of the Laplace runs (default "
                   "host: the chip's predicted run time)")
    p.add_argument("--svm-allow-no-svm", action="store_true",
                   help="with --suite svm: a build without the SVM library "
                   "runs the iRCCE version alone without failing")
    p.add_argument("--mpi4py-python", metavar="PY",
                   help="python suite: a Python whose mpi4py was built against "
                   "librckmpi (MPICC=rckmpicc), for the mpi4py columns (default: "
                   "<build>/mpi4py/rckmpi, built from PyPI on first use)")
    p.add_argument("--mpi4py-openmpi-python", metavar="PY",
                   help="python suite: a Python whose mpi4py was built against Open MPI "
                   "(default: <build>/mpi4py/openmpi, built from PyPI on first use)")
    p.add_argument("--no-mpi4py-build", action="store_true",
                   help="python suite: use the mpi4py environments already built, "
                   "build none (the missing ones are skipped)")
    p.add_argument("--mbox-rounds", type=int,
                   help="native rounds of the mbox suite (default 3; "
                   "--quick 1)")
    p.add_argument("--load-rounds", type=int,
                   help="interleaved rounds of the native-load suite "
                   "(default 5; --quick 2)")
    p.add_argument("--no-mpi", action="store_true",
                   help="do not run the Open MPI reference")
    p.add_argument("--mpirun", default="mpirun.openmpi")
    p.add_argument("--mpicc", default="mpicc.openmpi")
    p.add_argument("--timeout", type=int, default=300,
                   help="seconds before one benchmark run is ended "
                   "(default 300)")
    p.add_argument("--max-failures", type=int, default=2,
                   help="stop running an implementation in a suite after "
                   "this many failed rounds (default 2)")
    p.add_argument("--no-plots", action="store_true")
    return p


def resolve_args(args):
    q = args.quick
    if args.rounds is None:
        args.rounds = 3 if q else 10
    if args.max_size is None:
        args.max_size = (64 << 10) if q else (4 << 20)
    if args.reps_scale is None:
        args.reps_scale = 0.25 if q else 1.0
    if args.barrier_reps is None:
        args.barrier_reps = 100 if q else 500
    if args.sim_rounds is None:
        args.sim_rounds = 2 if q else 3
    if args.ircce_rounds is None:
        args.ircce_rounds = 2 if q else 5
    if args.sim_reps_scale is None:
        args.sim_reps_scale = 0.02
    if args.coll_ues is None:
        args.coll_ues = [2, 8, 48] if q else [2, 4, 8, 16, 32, 48]
    if args.coll_sizes is None:
        args.coll_sizes = [64, 4096] if q else [64, 65536]
    if args.coll_rounds is None:
        args.coll_rounds = 1 if q else 3
    if args.coll_reps_scale is None:
        args.coll_reps_scale = 0.25 if q else 0.5
    if args.coll_sim_reps_scale is None:
        args.coll_sim_reps_scale = 0.05
    if args.svm_configs:
        for k in args.svm_configs:
            try:
                svmbench.laplace_config(k)
            except KeyError:
                raise SystemExit("--svm-configs: unknown version %r (one of "
                                 "%s)" % (k, ", ".join(
                                     c["key"] for c in
                                     svmbench.LAPLACE_CONFIGS))) from None
    if any(s <= 0 or s % 8 for s in args.coll_sizes):
        raise SystemExit("--coll-sizes must be positive multiples of 8")
    args.build_dir = os.path.abspath(args.build_dir)
    if args.out is None:
        args.out = os.path.join(args.build_dir, "bench-results")
    args.out = os.path.abspath(args.out)
    if args.rounds < 1 or args.sim_rounds < 1:
        raise SystemExit("--rounds and --sim-rounds must be at least 1")
    if args.min_size > args.max_size:
        raise SystemExit("--min-size is larger than --max-size")
    return args


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.list_suites:
        for name, fn in SUITES.items():
            log("%-16s %s" % (name, " ".join((fn.__doc__ or "").split())))
        return 0
    args = resolve_args(args)
    os.makedirs(args.out, exist_ok=True)
    t_start = time.monotonic()

    impls = {}
    for make in (make_rockcreek, make_openmpi, make_sim):
        impl = make(args)
        impls[impl.name] = impl
    info = machine_info(args)
    log("rck-bench: %d rounds, output in %s" % (args.rounds, args.out))
    log("machine: %s, %s CPUs, load %s, commit %s"
        % (info["cpu_model"], info["nproc"],
           " ".join(info["loadavg_start"]), info["git_commit"] or "none"))
    for impl in impls.values():
        if impl.available:
            log("%s: %s" % (impl.label, ", ".join(
                "%s=%s" % kv for kv in sorted(impl.programs.items()))))
        else:
            log("%s: NOT RUN: %s" % (impl.label, impl.reason))
    if not impls["openmpi"].available:
        log("NOTE: Open MPI is not available; running rockcreek only "
            "(no ratios, no verdicts).")

    ctx = Context(args, impls)
    selected = args.suite or list(SUITES)
    results = {}
    for name in selected:
        log("")
        log("== suite %s ==" % name)
        res = SUITES[name](ctx)
        results[name] = res
        log("")
        for t in res.tables:
            log(t)
            log("")
        for v in res.verdicts:
            log(str(v))

    elapsed = time.monotonic() - t_start
    info["loadavg_end"] = _read("/proc/loadavg").split()[:3]
    verdicts = [dict(v.as_dict(), suite=n)
                for n, r in results.items() for v in r.verdicts]
    doc = {
        "harness": "rckbench", "format_version": 1,
        "machine": info,
        "config": {k: v for k, v in vars(args).items()},
        "implementations": {n: {"label": i.label, "available": i.available,
                                "reason": i.reason,
                                "programs": i.programs}
                            for n, i in impls.items()},
        "suites": {n: r.data for n, r in results.items()},
        "verdicts": verdicts,
        "failures": ctx.failures,
        "elapsed_s": round(elapsed, 1),
    }
    json_path = os.path.join(args.out, "results.json")
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
    csv_path = os.path.join(args.out, "results.csv")
    write_csv(csv_path, [row for r in results.values() for row in r.csv_rows])
    written = [json_path, csv_path]
    for r in results.values():
        for fname, fn in r.files:
            path = os.path.join(args.out, fname)
            fn(path)
            written.append(path)
    if not args.no_plots:
        for r in results.values():
            for fname, fn in r.plots:
                path = os.path.join(args.out, fname)
                try:
                    fn(path)
                    written.append(path)
                except ImportError as e:
                    log("warning: no plots (%s); pip install matplotlib" % e)
                    break
    log("")
    log("== summary (%.0f s) ==" % elapsed)
    for v in verdicts:
        log("[%s] target: %s: %s (%s)" % (v["suite"], v["target"],
                                          v["status"], v["detail"]))
    for path in written:
        log("wrote " + path)
    status = 0
    if not impls["rockcreek"].available:
        log("ERROR: rockcreek was not run: " + impls["rockcreek"].reason)
        status = 1
    if ctx.failures:
        log("ERROR: %d benchmark run(s) failed:" % len(ctx.failures))
        for fl in ctx.failures:
            log("  " + fl)
        status = 1
    return status


def cli(argv=None):
    """Entry point of rck-bench: a missing optional module (matplotlib,
    numpy, pandas) is one line and status 2."""
    from .._deps import run_cli
    return run_cli("rck-bench", main, argv)


if __name__ == "__main__":
    sys.exit(cli())
