"""The `python` suite: what rockcreek.rcce costs over C (issue 31), beside
what mpi4py costs over C on Open MPI and on librckmpi.

A 2-process pingpong, one-way latency, in interleaved rounds of the same
run, of:

* C's RCCE (bench/rcce_pingpong) and rockcreek.rcce (bench/py_pingpong.py:
  the same loop and output lines; with the compiled module where the build
  made it, and in ABI mode), on native (host time) and sim (RCCE_wtime:
  chip time; a Python UE is timed by the `host` compute model, so the
  interpreter's CPU time is charged, x20);
* librckmpi's C pingpong (bench/rckmpi/rckmpi_bench -o pingpong) and
  mpi4py built against librckmpi (bench/mpi4py_pingpong.py), native and
  sim;
* Open MPI's (the issue's reference peer): bench/mpi_pingpong.c built by
  mpicc.openmpi and mpi4py built against Open MPI, under `mpirun -np 2
  --oversubscribe --mca btl self,vader` (host time; native only).

Both mpi4py builds come from PyPI into <build>/mpi4py (mpi4pyenv; built on
first use, a few minutes each); one that cannot be had is a "skipped:
<reason>" line, never a failure. The issue's target: rockcreek.rcce's
overhead over C's RCCE within 2x of mpi4py's over Open MPI's C (native,
host time, same machine and rounds).
"""

import os
import re
import shutil
import sys

from .. import caps
from . import mpi4pyenv
from . import report
SIZES_QUICK = (1, 1024)
SIZES = (1, 32, 1024, 4096, 65536)
_RCKMPI_LINE = re.compile(r"op=pingpong ues=2 size=(\d+) reps=(\d+) us=([0-9.eE+-]+)")


def parse_rckmpi_pingpong(text, source=None):
    """rckmpi_bench's "op=pingpong ues=2 size= reps= us=" lines as the
    pingpong contract's dicts (lat_us = us)."""
    out = []
    for line in text.splitlines():
        m = _RCKMPI_LINE.search(line)
        if m:
            out.append({"size": int(m.group(1)), "reps": int(m.group(2)),
                        "lat_us": float(m.group(3)), "bw_mbs": 0.0})
    if not out:
        raise report.BenchParseError("no 'op=pingpong' lines", source=source)
    return out


# key -> (label, launcher, backends); launcher "rck" (`rck run`) or "mpirun"
# (Open MPI's); in this order in the tables
CONFIGS = {
    "c": ("C RCCE", "rck", ("native", "sim")),
    "py": ("rockcreek.rcce", "rck", ("native", "sim")),
    "pyabi": ("rockcreek.rcce ABI", "rck", ("native", "sim")),
    "cmpi": ("C librckmpi", "rck", ("native", "sim")),
    "mpi4py": ("mpi4py on librckmpi", "rck", ("native", "sim")),
    "compi": ("C Open MPI", "mpirun", ("native",)),
    "mpi4pyompi": ("mpi4py on Open MPI", "mpirun", ("native",)),
}
# (python key, its C key): the overheads shown
OVERHEADS = (("py", "c"), ("mpi4py", "cmpi"), ("mpi4pyompi", "compi"))
_OVH_HEAD = {"py": "rcce.py\n- C RCCE", "mpi4py": "mpi4py\n- C rckmpi",
             "mpi4pyompi": "mpi4py\n- C OMPI"}


def find_pythons(a, log):
    """{"rckmpi": py or None, "openmpi": py or None}, and the reasons for
    the Nones: --mpi4py-python / --mpi4py-openmpi-python, else the
    environments of mpi4pyenv (built here unless --no-mpi4py-build)."""
    out, why = {}, {}
    given = {"rckmpi": getattr(a, "mpi4py_python", None),
             "openmpi": getattr(a, "mpi4py_openmpi_python", None)}
    for kind in mpi4pyenv.KINDS:
        if kind == "openmpi" and getattr(a, "no_mpi", False):
            out[kind], why[kind] = None, "disabled by --no-mpi"
            continue
        if given[kind]:
            ok, what = mpi4pyenv.check(given[kind], kind)
            out[kind], why[kind] = (given[kind], what) if ok else (None, what)
            continue
        out[kind], why[kind] = mpi4pyenv.ensure(
            kind, a.build_dir, log=log, build=not getattr(a, "no_mpi4py_build", False))
    return out, why


def _openmpi_c(a, run):
    """Open MPI's C pingpong (bench/mpi_pingpong.c): the build's, else
    built here with mpicc.openmpi; (path or None, why)."""
    exe = os.path.join(a.build_dir, "bench", "mpi_pingpong")
    if os.access(exe, os.X_OK):
        return exe, ""
    mpicc = shutil.which(getattr(a, "mpicc", "mpicc.openmpi"))
    if mpicc is None:
        return None, "%s not built and mpicc.openmpi not found" % exe
    err = run._build_mpi_program(mpicc, os.path.join(run.SOURCE_DIR, "bench",
                                                     "mpi_pingpong.c"), exe)
    return (None, err) if err else (exe, "")


def configs(a, build_dir, source_dir, pythons=None, ompi_c=None):
    """(key, label, argv after the launcher, parser, launcher); the Nones of
    @p pythons and @p ompi_c are left out."""
    pythons = pythons or {}
    py = sys.executable
    pp = os.path.join(source_dir, "bench", "py_pingpong.py")
    m4 = os.path.join(source_dir, "bench", "mpi4py_pingpong.py")
    argv = {"c": [os.path.join(build_dir, "bench", "rcce_pingpong")],
            "py": [py, pp],
            "pyabi": ["/usr/bin/env", "ROCKCREEK_RCCE_ABI=1", py, pp]}
    if pythons.get("rckmpi"):
        argv["cmpi"] = [os.path.join(build_dir, "bench", "rckmpi", "rckmpi_bench"),
                        "-o", "pingpong"]
        argv["mpi4py"] = [pythons["rckmpi"], m4]
    if pythons.get("openmpi") and ompi_c:
        argv["compi"] = [ompi_c]
        argv["mpi4pyompi"] = [pythons["openmpi"], m4]
    out = []
    for k, (label, launcher, _) in CONFIGS.items():
        if k in argv:
            out.append((k, label, argv[k], parse_rckmpi_pingpong if k == "cmpi"
                        else report.parse_pingpong_output, launcher))
    return out


def _have_cffi():
    try:
        import cffi  # noqa: F401
        return True
    except ImportError:
        return False


def _args_for(key, sizes, sim, reps_scale):
    if key == "cmpi":
        return ["-s", ",".join(str(s) for s in sizes), "-r", "2000"]
    out = ["-m", str(sizes[0]), "-s", str(sizes[-1]), "-r", repr(reps_scale)]
    return out + (["-w"] if sim else [])


def _diff(med, a, b, s):
    x, y = med.get(a, {}).get(s), med.get(b, {}).get(s)
    return None if x is None or y is None else x - y


def overheads(med):
    """{size: {"py": rcce.py - C, "mpi4py": ..., "mpi4pyompi": ...,
    "ratio_ompi": rcce.py's over mpi4py-on-Open-MPI's, "ratio_rckmpi": ...}}
    from the medians, where both sides were measured."""
    sizes = sorted(set().union(*[set(v) for v in med.values()])) if med else []
    out = {}
    for s in sizes:
        o = {p: _diff(med, p, c, s) for p, c in OVERHEADS}
        for tag, other in (("ratio_ompi", "mpi4pyompi"), ("ratio_rckmpi", "mpi4py")):
            # a negative overhead is noise (the C run was the slower one):
            # no ratio of it
            o[tag] = (o["py"] / o[other] if o["py"] is not None and o[other] is not None
                      and o["py"] > 0 and o[other] > 0 else None)
        out[s] = o
    return out


def overhead_table(backend, med, cfg_labels, stat="median", timed=False):
    """Rows: size, each config's median (or @p stat), the Python-over-C
    overheads, and rockcreek.rcce's over mpi4py's (on Open MPI, on
    librckmpi)."""
    keys = [k for k in CONFIGS if k in med]
    ovh = overheads(med)
    shown = [p for p, c in OVERHEADS if p in med and c in med]
    ratios = [t for t, o in (("ratio_ompi", "mpi4pyompi"), ("ratio_rckmpi", "mpi4py"))
              if o in shown and "py" in shown]
    rows = []
    for s, o in ovh.items():
        r = [report.format_size(s)] + [report.format_value(med[k].get(s)) for k in keys]
        r += [report.format_value(o[p]) for p in shown]
        r += ["%.2fx" % o[t] if o[t] is not None else "-" for t in ratios]
        rows.append(r)
    heads = (["size"] + [cfg_labels[k] for k in keys] + [_OVH_HEAD[p] for p in shown]
             + [{"ratio_ompi": "ratio vs\nOpen MPI", "ratio_rckmpi": "ratio vs\nrckmpi"}[t]
                for t in ratios])
    unit = "chip us (RCCE_wtime, host model)" if timed else "host us"
    what = "median of rounds" if stat == "median" else "best round (%s)" % stat
    return ("python (%s): 2-process pingpong one-way latency, %s, %s\n" % (
        backend, what, unit) + report.format_table(heads, rows))


def bandwidth_table(backend, med, cfg_labels):
    """MB/s (10^6 B/s) from each config's median one-way latency."""
    keys = [k for k in CONFIGS if k in med]
    sizes = sorted(set().union(*[set(v) for v in med.values()]))
    rows = [[report.format_size(s)] + [report.format_value(
        s / med[k][s] if med[k].get(s) else None) for k in keys] for s in sizes if s >= 1024]
    return ("python (%s): pingpong bandwidth from the median latency, MB/s\n" % backend
            + report.format_table(["size"] + [cfg_labels[k] for k in keys], rows))


def noise_table(backend, agg, cfg_labels):
    """Per config and size: the rounds' spread, (max - min) / median."""
    keys = [k for k in CONFIGS if k in agg]
    sizes = sorted(set().union(*[set(v) for v in agg.values()]))
    rows = []
    for s in sizes:
        r = [report.format_size(s)]
        for k in keys:
            v = agg[k].get(s)
            r.append("%.0f%% (n=%d)" % (100.0 * (v["max"] - v["min"]) / v["median"], v["n"])
                     if v and v["median"] else "-")
        rows.append(r)
    return ("python (%s): noise, (max - min) / median of the rounds\n" % backend
            + report.format_table(["size"] + [cfg_labels[k] for k in keys], rows))


def _launcher(a, rck, backend, kind):
    if kind == "mpirun":
        mpirun = shutil.which(getattr(a, "mpirun", "mpirun.openmpi")) or "mpirun.openmpi"
        return lambda prog, nproc, prog_args: [
            mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(nproc),
            "--bind-to", "none", "--mca", "btl", "self,vader"] + prog_args
    return lambda prog, nproc, prog_args: [
        rck, "run", "-n", str(nproc), "--backend", backend, "--no-prefix", "--"] + prog_args


def _prepare(a, run):
    """The mpi4py environments and Open MPI's C pingpong; logs a
    "skipped: <reason>" line for each that cannot be had."""
    pythons, why = find_pythons(a, run.log)
    ompi_c = None
    if pythons.get("openmpi"):
        ompi_c, err = _openmpi_c(a, run)
        if ompi_c is None:
            why["openmpi"] = err
    skipped = {}
    for kind, label in (("rckmpi", "mpi4py on librckmpi"), ("openmpi", "mpi4py on Open MPI")):
        if not pythons.get(kind) or (kind == "openmpi" and ompi_c is None):
            skipped[kind] = why[kind]
            run.log("python: %s: skipped: %s" % (label, why[kind]))
        else:
            run.log("python: %s: %s (%s)" % (label, pythons[kind], why[kind]))
    return pythons, ompi_c, skipped


def suite(ctx, run):
    """run: the rockcreek.bench.run module."""
    a = ctx.args
    rounds = 1 if a.quick else max(1, min(a.rounds, 15))
    sizes = SIZES_QUICK if a.quick else SIZES
    rck = os.path.join(a.build_dir, "src", "tools", "rck")
    pythons, ompi_c, skipped = _prepare(a, run)
    cfgs = configs(a, a.build_dir, run.SOURCE_DIR, pythons, ompi_c)
    labels = {k: CONFIGS[k][0] for k in CONFIGS}
    data = {"params": {"rounds": rounds, "sizes": list(sizes), "mpi4py_python": pythons,
                       "openmpi_c": ompi_c}, "skipped": skipped, "raw": {}}
    tables, rows, plots = [], [], []
    for backend in ("native", "sim"):
        try:
            timed = caps.timed(rck, backend)
        except caps.CapsError as e:
            run._not_run(ctx, "python", str(e), backend)
            continue
        bcfgs = [c for c in cfgs if backend in CONFIGS[c[0]][2]]
        raw = {k: [] for k, _, _, _, _ in bcfgs}
        for rnd in range(1, rounds + 1):
            order = bcfgs if rnd % 2 else list(reversed(bcfgs))
            for key, label, argv0, parse, launcher in order:
                missing = [p for p in argv0 if os.path.sep in p and not os.path.exists(p)]
                if key in ("py", "pyabi") and not _have_cffi():
                    missing.append("the Python module cffi (pip install cffi)")
                impl = run.Impl("python-" + key, label, {"pp": "unused"},
                                _launcher(a, rck, backend, launcher),
                                not missing, "missing: " + ", ".join(missing))
                if not impl.available:
                    run._not_run(ctx, "python", impl.reason, key)
                    continue
                suite_name = "python %s %s" % (backend, key)
                if ctx.gave_up(impl, suite_name):
                    continue
                rec = ctx.run_bench(impl, "pp", suite_name, 2,
                                    argv0 + _args_for(key, sizes, timed,
                                                      0.02 if timed else 0.1),
                                    rnd, parse, rounds=rounds, timeout=min(a.timeout, 300))
                raw[key].append(rec)
        agg, med = {}, {}
        for k, recs in raw.items():
            ag = report.aggregate_rounds([r["results"] for r in recs if r["ok"]],
                                         "size", "lat_us")
            ag = {s: v for s, v in ag.items() if s in sizes}
            if ag:
                agg[k] = ag
                med[k] = {s: v["median"] for s, v in ag.items()}
        data["raw"][backend] = raw
        data.setdefault("lat_us", {})[backend] = agg
        data.setdefault("median_lat_us", {})[backend] = med
        best = {k: {s: v["min"] for s, v in ag.items()} for k, ag in agg.items()}
        data.setdefault("overheads_us", {})[backend] = overheads(med)
        data.setdefault("overheads_best_us", {})[backend] = overheads(best)
        if med:
            tables += [overhead_table(backend, med, labels, timed=timed),
                       bandwidth_table(backend, med, labels),
                       noise_table(backend, agg, labels)]
            if rounds > 1:
                tables.append(overhead_table(backend, best, labels, "min", timed))
            series = {labels[k]: v for k, v in agg.items()}
            unit = "%s us, %s" % ("chip" if timed else "host", backend)
            plots.append(("python-%s-latency.png" % backend,
                          lambda path, s=series, u=unit: run._plots()._size_series_plot(
                              s, path, "Python and C pingpong (%s)" % u,
                              "one-way latency [us]", True, "min")))
        for k, pts in agg.items():
            for s, v in pts.items():
                rows.append({"suite": "python", "metric": "lat_us_%s_%s" % (backend, k),
                             "unit": "us", "point": s, "lower_is_better": 1, "ours": k,
                             "ours_median": v["median"], "ours_min": v["min"],
                             "ours_max": v["max"], "ours_n": v["n"], "note": labels[k]})
        for s, o in overheads(med).items():
            for k, v in o.items():
                if v is not None:
                    rows.append({"suite": "python", "metric": "%s_%s" % (
                        "overhead_us" if not k.startswith("ratio") else k, backend)
                        + ("" if k.startswith("ratio") else "_" + k),
                        "unit": "x" if k.startswith("ratio") else "us", "point": s,
                        "lower_is_better": 1, "ours": k, "ours_median": v,
                        "note": "Python minus C, median latencies"})
    if tables:
        tables.append(
            "rcce.py - C RCCE: rockcreek.rcce's added one-way latency; mpi4py - C rckmpi / "
            "OMPI: mpi4py's over the C of the same MPI; ratio vs Open MPI: the first over "
            "mpi4py's on Open MPI (issue 31's target: within 2x; native, host time), ratio "
            "vs rckmpi: over mpi4py's on librckmpi (same chip model, also on sim)")
    for kind, why in skipped.items():
        tables.append("python: mpi4py on %s: skipped: %s" % (
            "librckmpi" if kind == "rckmpi" else "Open MPI", why))
    return run.SuiteResult("python", data, tables, [], rows, plots)
