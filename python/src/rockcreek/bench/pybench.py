"""The `python` suite: what rockcreek.rcce costs over C (issue 31).

A 2-UE pingpong, one-way latency, in interleaved rounds in the same run:
C's RCCE (bench/rcce_pingpong) beside rockcreek.rcce (bench/py_pingpong.py:
the same loop and output lines; with the compiled module where the build
made it, and in ABI mode), on native (host time) and sim (RCCE_wtime:
chip time; a Python UE is timed by the `host` compute model, so the
interpreter's CPU time is charged, x20, and the machine's load matters
less). With --mpi4py-python PY (a Python whose mpi4py was built with
MPICC=rckmpicc), also mpi4py on librckmpi (bench/mpi4py_pingpong.py)
beside librckmpi's C pingpong (bench/rckmpi/rckmpi_bench -o pingpong), so
the two Python overheads can be compared (docs/PYTHON.md).
"""

import os
import re
import sys

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


def configs(a, build_dir, source_dir):
    """(key, label, argv prefix after `rck run ... --`, parser)."""
    py = sys.executable
    c = [("c", "C RCCE", [os.path.join(build_dir, "bench", "rcce_pingpong")],
          report.parse_pingpong_output),
         ("py", "rockcreek.rcce", [py, os.path.join(source_dir, "bench", "py_pingpong.py")],
          report.parse_pingpong_output),
         ("pyabi", "rockcreek.rcce ABI", ["/usr/bin/env", "ROCKCREEK_RCCE_ABI=1", py,
                                          os.path.join(source_dir, "bench", "py_pingpong.py")],
          report.parse_pingpong_output)]
    if getattr(a, "mpi4py_python", None):
        c += [("cmpi", "C librckmpi", [os.path.join(build_dir, "bench", "rckmpi",
                                                    "rckmpi_bench"), "-o", "pingpong"],
               parse_rckmpi_pingpong),
              ("mpi4py", "mpi4py on librckmpi",
               [a.mpi4py_python, os.path.join(source_dir, "bench", "mpi4py_pingpong.py")],
               report.parse_pingpong_output)]
    return c


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


def overhead_table(backend, med, cfg_labels):
    """Rows: size, each config's median, Python's overhead over C, and
    mpi4py's over librckmpi's C (and their ratio) where measured."""
    sizes = sorted(set().union(*[set(v) for v in med.values()])) if med else []
    keys = [k for k in ("c", "py", "pyabi", "cmpi", "mpi4py") if k in med]
    rows = []
    for s in sizes:
        r = [report.format_size(s)] + [report.format_value(med[k].get(s)) for k in keys]
        py_o = _diff(med, "py", "c", s)
        mp_o = _diff(med, "mpi4py", "cmpi", s)
        r.append(report.format_value(py_o))
        if "mpi4py" in med:
            r.append(report.format_value(mp_o))
            r.append("%.2gx" % (py_o / mp_o) if py_o is not None and mp_o else "-")
        rows.append(r)
    heads = ["size"] + [cfg_labels[k] for k in keys] + ["rcce.py\n- C"]
    if "mpi4py" in med:
        heads += ["mpi4py\n- C MPI", "overhead\nratio"]
    unit = "chip us (RCCE_wtime, host model)" if backend == "sim" else "host us"
    return ("python (%s): 2-UE pingpong one-way latency, median of rounds, %s\n" % (
        backend, unit) + report.format_table(heads, rows))


def _diff(med, a, b, s):
    x, y = med.get(a, {}).get(s), med.get(b, {}).get(s)
    return None if x is None or y is None else x - y


def suite(ctx, run):
    """run: the rockcreek.bench.run module."""
    a = ctx.args
    rounds = 1 if a.quick else max(1, min(a.rounds, 3))
    sizes = SIZES_QUICK if a.quick else SIZES
    rck = os.path.join(a.build_dir, "src", "tools", "rck")
    cfgs = configs(a, a.build_dir, run.SOURCE_DIR)
    labels = {k: lab for k, lab, _, _ in cfgs}
    data = {"params": {"rounds": rounds, "sizes": list(sizes),
                       "mpi4py_python": getattr(a, "mpi4py_python", None)}, "raw": {}}
    tables, rows = [], []
    for backend in ("native", "sim"):
        def launch(prog, nproc, prog_args, backend=backend):
            return [rck, "run", "-n", str(nproc), "--backend", backend, "--no-prefix",
                    "--"] + prog_args
        raw = {k: [] for k, _, _, _ in cfgs}
        for rnd in range(1, rounds + 1):
            order = cfgs if rnd % 2 else list(reversed(cfgs))
            for key, label, argv0, parse in order:
                missing = [p for p in argv0 if os.path.sep in p and not os.path.exists(p)]
                if key in ("py", "pyabi") and not _have_cffi():
                    missing.append("the Python module cffi (pip install cffi)")
                impl = run.Impl("python-" + key, label, {"pp": "unused"}, launch,
                                not missing, "missing: " + ", ".join(missing))
                if not impl.available:
                    run._not_run(ctx, "python", impl.reason, key)
                    continue
                suite_name = "python %s %s" % (backend, key)
                if ctx.gave_up(impl, suite_name):
                    continue
                rec = ctx.run_bench(impl, "pp", suite_name, 2,
                                    argv0 + _args_for(key, sizes, backend == "sim",
                                                      0.02 if backend == "sim" else 0.1),
                                    rnd, parse, rounds=rounds, timeout=min(a.timeout, 300))
                raw[key].append(rec)
        med = {}
        for k, recs in raw.items():
            agg = report.aggregate_rounds([r["results"] for r in recs if r["ok"]],
                                          "size", "lat_us")
            if agg:
                med[k] = {s: v["median"] for s, v in agg.items() if s in sizes}
        data["raw"][backend] = raw
        data.setdefault("median_lat_us", {})[backend] = med
        if med:
            tables.append(overhead_table(backend, med, labels))
        for k, pts in med.items():
            for s, v in pts.items():
                rows.append({"suite": "python", "metric": "lat_us_%s_%s" % (backend, k),
                             "unit": "us", "point": s, "lower_is_better": 1, "ours": k,
                             "ours_median": v, "note": labels[k]})
    if tables:
        tables.append("rcce.py - C: rockcreek.rcce's added one-way latency; mpi4py - C MPI: "
                      "mpi4py's over librckmpi's C; overhead ratio: the first over the second "
                      "(issue 31's target: within 2x)")
    return run.SuiteResult("python", data, tables, [], rows, [])

