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

from .. import caps
from . import report
from . import simbench
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
from . import simsuites
from . import commsuites
from . import svmsuite
from . import mboxsuite


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

    timed = []  # the backend with a virtual-time model (caps.timed)

    def launch(prog, nproc, prog_args):
        opts, pargs = _split_launcher_args(prog_args)
        return ([rck, "run", "-n", str(nproc), "--backend", timed[0],
                 "--no-prefix"] + opts + ["--", prog] + pargs)

    if not os.access(rck, os.X_OK):
        return Impl("sim", "rockcreek (sim backend)", {}, launch, False,
                    "not built: %s" % rck)
    try:
        timed += [b for b, c in caps.backend_caps(rck).items()
                  if "timed" in c]
    except caps.CapsError as e:
        return Impl("sim", "rockcreek (sim backend)", {}, launch, False,
                    str(e))
    if not timed:
        return Impl("sim", "rockcreek (sim backend)", {}, launch, False,
                    "no backend with a timing model is compiled into %s"
                    % rck)
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


def suite_sim_calibration(ctx):
    """The sim-calibration suite (python/src/rockcreek/bench/simsuites.py)."""
    return simsuites.suite_sim_calibration(ctx, sys.modules[__name__])


def suite_sim_speed(ctx):
    """The sim-speed suite (python/src/rockcreek/bench/simsuites.py)."""
    return simsuites.suite_sim_speed(ctx, sys.modules[__name__])


def suite_ircce(ctx):
    """The ircce suite (python/src/rockcreek/bench/commsuites.py)."""
    return commsuites.suite_ircce(ctx, sys.modules[__name__])


def suite_collectives(ctx):
    """The collectives suite (python/src/rockcreek/bench/commsuites.py)."""
    return commsuites.suite_collectives(ctx, sys.modules[__name__])


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


def suite_svm(ctx):
    """The svm suite (python/src/rockcreek/bench/svmsuite.py)."""
    return svmsuite.suite_svm(ctx, sys.modules[__name__])


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


def suite_mbox(ctx):
    """The mbox suite (python/src/rockcreek/bench/mboxsuite.py)."""
    return mboxsuite.suite_mbox(ctx, sys.modules[__name__])


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


def suite_mpi_backend(ctx):
    """RCCE on the mpi backend vs the MPI it runs on (python/src/rockcreek/bench/
    mpibench.py)."""
    return mpibench.suite(ctx, sys.modules[__name__])


def suite_power(ctx):
    """The sim's power model (docs/POWER.md): dot product and matrix
    multiply on 48 cores at dividers 2..16, power with 1..48 busy cores,
    and the model beside Intel's published 25 W and 125 W points."""
    return powerbench.suite(ctx, sys.modules[__name__])


def suite_mpi(ctx):
    """rockcreek's MPI on the MPBs: both channels on sim, beside Open MPI
    on native (python/src/rockcreek/bench/rckmpibench.py)."""
    return rckmpibench.suite(ctx, sys.modules[__name__])


def suite_p54c(ctx):
    """The P54C compute model (docs/P54C.md): one core's bandwidths beside
    the published ones, the working-set sweep, the Fiasco.OC copy, 48
    cores streaming against one, the 48-core stencil's speed under host,
    p54c-fast and p54c (python/src/rockcreek/bench/p54cbench.py)."""
    return p54cbench.suite(ctx, sys.modules[__name__])


def suite_python(ctx):
    """rockcreek.rcce's pingpong beside C's RCCE, mpi4py on librckmpi and on
    Open MPI beside their C, on native and sim (python/src/rockcreek/bench/pybench.py)."""
    return pybench.suite(ctx, sys.modules[__name__])


# name -> function(ctx) -> SuiteResult, run in this order. The driver's own
# suites (pingpong, barrier) are above; every other is one line handing
# (ctx, this module) to its module's suite function, which returns the
# SuiteResult (tables, verdicts, CSV rows, plots) that the driver writes.
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
    "python": suite_python,
}


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
