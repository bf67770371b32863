"""The distributed part of the `snet` suite (docs/SNET.md, "Across the
chip"): the S-Net distribution layers (RCK_SNET_DIST=nodist|scc|mpi) beside
each other, on the native and sim backends, with the programs of
bench/snet/dist (built with the MPI layer, so one program runs every layer):

* pingpong: a record with one field of 8 B .. 256 MiB from UE 0 to a box on
  UE 1 and back (us per round trip);
* domain: a domain decomposition, one 10 MB part per UE sent to its UE,
  relaxed there and sent back whole (us per step);
* farm: two tasks per UE of 5 and 10 MB, a small result back (us per run);
* pipeline48: a record (1 KiB) through 48 stages, stage i on UE i (us per
  record).

nodist runs the whole network on UE 0 (placements ignored): the cost of the
work without any transfer. The sim's sizes are capped (its shared DRAM and
MPB copies are timed line by line: slow in host time) so that the suite
stays under two minutes there.

The pure functions (plan, parse, summarize, rows_of, table) are apart from
the process handling so they can be tested without running anything.
"""

import os
import subprocess

from .. import caps
from . import loadbench, report

# scc: RCK_SNET_SCC=copy (the default: long fields copied once through a
# LUT window); scc-remap: read in place through the owner's pages mapped;
# scc-slab: copied into shared DRAM and out again
LAYERS = ["nodist", "scc", "scc-remap", "scc-slab", "mpi"]
TRANSFERRING = ["scc", "scc-remap", "scc-slab", "mpi"]
BENCHES = ["pingpong", "domain", "farm", "pipeline48"]
MiB = 1 << 20


def plan(quick, timed):
    """The runs: [(bench, ues, [input records as dicts])] for one backend;
    @p timed: it has a virtual-time model (caps.timed), slower per run."""
    if timed:
        sizes = [8, 1024, 16384, 262144, MiB] if not quick else [8, 16384]
        big, farm_sizes, ues4, pipe_reps = MiB, [MiB // 2, MiB], 4, 4
    else:
        sizes = [8, 64, 1024, 16384, 262144, MiB, 16 * MiB, 256 * MiB]
        if quick:
            sizes = [8, 1024, 262144, 16 * MiB]
        big, farm_sizes, ues4, pipe_reps = 10 ** 7, [5 * 10 ** 6, 10 ** 7], \
            4, 20
    pp = []
    for s in sizes:
        reps = max(2, min(200 if not timed else 20, (64 * MiB) // max(s, 1)))
        if timed:
            reps = max(2, min(reps, (1 * MiB) // max(s, 1)))
        pp.append({"size": s, "reps": reps, "ues": 2})
    steps = 1 if quick or timed else 2
    dom = [{"size": big, "parts": ues4, "per": 1, "steps": steps,
            "ues": ues4}]
    farm = [{"size": s, "parts": ues4, "per": 2, "steps": 1, "ues": ues4}
            for s in farm_sizes]
    pipe = [{"size": 1024, "reps": pipe_reps, "ues": 48}]
    return [("pingpong", 2, pp), ("domain", ues4, dom), ("farm", ues4, farm),
            ("pipeline48", 48, pipe)]


def input_xml(records):
    """The input records (tags only) in the era's record format."""
    out = []
    for r in records:
        tags = "".join('<tag label="%s">%d</tag>' % (k, v)
                       for k, v in r.items())
        out.append('<record type="data">%s</record>' % tags)
    out.append('<record type="terminate"/>')
    return "\n".join(out) + "\n"


def parse(text, source=None):
    """The programs' "snetdist:" lines -> [{bench, layer, ues, size,
    records, us}]. Raises report.BenchParseError on a malformed line."""
    out = []
    for line in text.splitlines():
        if "snetdist:" not in line:
            continue
        line = line[line.index("snetdist:") + len("snetdist:"):]
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        try:
            out.append({"bench": kv["bench"], "layer": kv["layer"],
                        "ues": int(kv["ues"]), "size": int(kv["size"]),
                        "records": int(kv["records"]),
                        "us": float(kv["us"])})
        except (KeyError, ValueError):
            raise report.BenchParseError("bad snetdist line: %r" % line,
                                         source=source)
    return out


def summarize(results):
    """[{backend, bench, layer, size, us}] -> {(backend, bench, layer,
    size): aggregate of us}."""
    flat = [{"config": (r["backend"], r["bench"], r["layer"], r["size"]),
             "ok": True, "lat_us": r["us"]} for r in results]
    return loadbench.summarize(flat)


def _points(summary):
    return sorted({(b, n, s) for (b, n, _, s) in summary})


def rows_of(summary):
    """CSV rows: per backend, benchmark and size, each layer against mpi."""
    rows = []
    for backend, bench, size in _points(summary):
        mpi = summary.get((backend, bench, "mpi", size))
        for layer in LAYERS:
            ours = summary.get((backend, bench, layer, size))
            if ours is None:
                continue
            ref = mpi if layer != "mpi" else None
            rows.append({
                "suite": "snet", "metric": "us", "unit": "us",
                "point": "%s %s %d %s" % (backend, bench, size, layer),
                "lower_is_better": 1,
                "ours": "S-Net %s layer, %s, %s" % (layer, bench, backend),
                "ours_median": ours["median"], "ours_min": ours["min"],
                "ours_max": ours["max"], "ours_n": ours["n"],
                "ref": "S-Net mpi layer" if ref else "",
                "ref_median": ref["median"] if ref else None,
                "ratio_median": report.ratio(ours["median"], ref["median"])
                if ref else None,
                "status": "", "note": ""})
    return rows


def table(summary):
    """One table: each point's layers side by side, ratios to mpi, and the
    winner among the transferring layers (scc, mpi)."""
    out = []
    for backend, bench, size in _points(summary):
        cells = [backend, bench, str(size)]
        vals = {}
        for layer in LAYERS:
            v = summary.get((backend, bench, layer, size))
            vals[layer] = v["median"] if v else None
            cells.append(report.format_value(v["median"]) if v else "-")
        s, m = vals["scc"], vals["mpi"]
        cells.append("%.2f" % (s / m) if s and m else "-")
        have = [(vals[x], x) for x in TRANSFERRING if vals[x]]
        cells.append(min(have)[1] if len(have) > 1 else "-")
        out.append(cells)
    return ("snet across the chip: us (medians; pingpong per round trip, "
            "pipeline48 per record, domain per step, farm per run; scc = "
            "RCK_SNET_SCC=copy)\n"
            + report.format_table(["backend", "bench", "bytes"] + LAYERS
                                  + ["scc/mpi", "fastest"], out))


def layer_env(layer):
    """The settings that select a layer of LAYERS."""
    if layer.startswith("scc"):
        return {"RCK_SNET_DIST": "scc",
                "RCK_SNET_SCC": layer[4:] if layer != "scc" else "copy"}
    return {"RCK_SNET_DIST": layer}


def run_one(rck, prog, backend, ues, layer, records, timeout):
    """One run of a program: its parsed lines, or an error string."""
    # RCK_SNET_ASYNC=off: the generator times each record's way by
    # C4SNetOut returning once the record has gone its way (depth-first),
    # which holds only for synchronous calls ("Cores in parallel")
    env = dict(os.environ, RCK_SIM_REPORT="none", RCK_SNET_ASYNC="off",
               **layer_env(layer))
    try:
        p = subprocess.run([rck, "run", "-n", str(ues), "--backend", backend,
                            prog], input=input_xml(records),
                           capture_output=True, text=True, env=env,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, p.stderr[-400:])
    return parse(p.stdout, source=prog), None


def run_all(build_dir, backends, quick, rounds, log=print):
    """Every benchmark, layer and backend, `rounds` times; returns (results,
    errors)."""
    rck = os.path.join(build_dir, "src", "tools", "rck")
    results, errors = [], []
    for backend in backends:
        try:
            timed = caps.timed(rck, backend)
        except caps.CapsError as e:
            errors.append(str(e))
            continue
        for bench, ues, records in plan(quick, timed):
            prog = os.path.join(build_dir, "bench", "snetdist_" + bench)
            if not os.path.exists(prog):
                errors.append("%s: not built" % prog)
                continue
            for layer in LAYERS:
                for _ in range(rounds):
                    got, err = run_one(rck, prog, backend, ues, layer,
                                       records, 600)
                    if err:
                        errors.append("%s %s %s: %s" % (backend, bench,
                                                        layer, err))
                        log("snet: %s %s %s: %s" % (backend, bench, layer,
                                                    err))
                        break
                    for g in got:
                        g["backend"] = backend
                        results.append(g)
    return results, errors


def backends_of(summary):
    return sorted({b for (b, _, _, _) in summary})


def plot_pingpong(summary, backend, path, note=None):
    """Round-trip time against size on one backend, a line per layer."""
    from . import plots
    series = {}
    for layer in LAYERS:
        pts = {size: v for (b, bench, lay, size), v in summary.items()
               if b == backend and bench == "pingpong" and lay == layer}
        if pts:
            series[layer] = pts
    return plots._size_series_plot(
        series, path, "S-Net record ping-pong between two UEs (%s)" % backend,
        "round trip [us]", True, "min", note)


# ---- the farm's speed-up (docs/SNET.md, "Cores in parallel") -------------

SPEEDUP_UES = [1, 2, 4, 8]


def farm_input(tasks=32, work=100000, kinds=8):
    """The farmpar network's input: tasks records <p> = i % kinds, <n>."""
    return input_xml([{"p": i % kinds, "n": work} for i in range(tasks)])


def parse_chip_seconds(stderr):
    """The sim's summary line's chip time in seconds, or None."""
    import re
    m = re.search(r"= ([0-9.]+) s of chip time", stderr)
    return float(m.group(1)) if m else None


def speedup_table(points):
    """points: {(backend, ues): seconds} -> the speed-up table."""
    out = []
    for backend in sorted({b for b, _ in points}):
        one = points.get((backend, 1))
        for ues in sorted(u for b, u in points if b == backend):
            t = points[(backend, ues)]
            out.append([backend, str(ues), "%.6f" % t,
                        "%.2f" % (one / t) if one and t else "-"])
    return ("snet farm across the chip: 32 tasks (work !!@ <p>, <p> = 0..7), "
            "scc layer, seconds (sim: chip time; native: host time of the "
            "run) and speed-up over 1 UE\n"
            + report.format_table(["backend", "UEs", "seconds", "speed-up"],
                                  out))


def speedup_rows(points):
    rows = []
    for (backend, ues), t in sorted(points.items()):
        one = points.get((backend, 1))
        rows.append({
            "suite": "snet", "metric": "speedup", "unit": "x",
            "point": "%s farmpar %d UEs" % (backend, ues),
            "lower_is_better": 0,
            "ours": "S-Net farm on %d UEs (scc), %s" % (ues, backend),
            "ours_median": one / t if one and t else None, "ours_min": None,
            "ours_max": None, "ours_n": 1, "ref": "", "ref_median": None,
            "ratio_median": None, "status": "", "note": "%.6f s" % t})
    return rows


def run_speedup(build_dir, backends, log=print):
    """Build farmpar with rck snetc (counted: deterministic chip time on the
    sim) and run it on SPEEDUP_UES UEs; returns ({(backend, ues): s},
    errors)."""
    import time
    rck = os.path.join(build_dir, "src", "tools", "rck")
    src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..",
                       "bench", "snet", "dist")
    prog = os.path.join(build_dir, "bench", "snetdist_farmpar")
    errors, points = [], {}
    p = subprocess.run([rck, "snetc", os.path.join(src, "farmpar.snet"),
                        os.path.join(src, "farmpar_boxes.c"), "-o", prog],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return points, ["farmpar: rck snetc failed: %s" % p.stderr[-300:]]
    for backend in backends:
        for ues in SPEEDUP_UES:
            env = dict(os.environ, RCK_SIM_REPORT="none", RCK_SNET_DIST="scc")
            t0 = time.monotonic()
            r = subprocess.run([rck, "run", "-n", str(ues), "--backend",
                                backend, prog], input=farm_input(),
                               capture_output=True, text=True, env=env,
                               timeout=600)
            wall = time.monotonic() - t0
            if r.returncode != 0:
                errors.append("farmpar %s %d: exit %d" % (backend, ues,
                                                          r.returncode))
                log(errors[-1])
                continue
            t = (parse_chip_seconds(r.stderr) if caps.timed(rck, backend)
                 else wall)
            if t is None:
                errors.append("farmpar %s %d: no chip time" % (backend, ues))
                continue
            points[(backend, ues)] = t
    return points, errors


# ---- a pipeline's speed-up (docs/SNET.md, "Cores in parallel") -----------

# (program, records, UE counts): bench/snet/dist/pipe8.snet and pipe48.snet,
# stage i on UE i (mod the UEs), ROUNDS rounds of work per stage
PIPES = [("pipe8", 32, [1, 2, 4, 8]), ("pipe48", 64, [1, 8, 48])]
PIPE_ROUNDS = 20000


def pipe_input(records, rounds=PIPE_ROUNDS):
    """The pipe networks' input: records <x> = i, <n> = rounds."""
    return input_xml([{"x": i, "n": rounds} for i in range(records)])


def pipe_table(points):
    """points: {(prog, ues, async): seconds} -> the pipeline table: chip
    time with asynchronous calls, speed-up over 1 UE, time with
    RCK_SNET_ASYNC=off and the gain of on over off."""
    out = []
    for prog in sorted({p for p, _, _ in points}, key=lambda p: int(p[4:])):
        one = points.get((prog, 1, "on"))
        for ues in sorted({u for p, u, _ in points if p == prog}):
            on = points.get((prog, ues, "on"))
            off = points.get((prog, ues, "off"))
            out.append([prog, str(ues),
                        "%.6f" % on if on else "-",
                        "%.2f" % (one / on) if one and on else "-",
                        "%.6f" % off if off else "-",
                        "%.2f" % (off / on) if off and on else "-"])
    return ("snet pipeline across the chip (bench/snet/dist/pipe8, pipe48: "
            "stage i on UE i, %d rounds per stage), scc layer, sim chip "
            "time in seconds\n" % PIPE_ROUNDS
            + report.format_table(["network", "UEs", "async on",
                                   "speed-up", "async off", "on vs off"],
                                  out))


def pipe_rows(points):
    rows = []
    for (prog, ues, mode), t in sorted(points.items()):
        one = points.get((prog, 1, "on"))
        rows.append({
            "suite": "snet", "metric": "speedup", "unit": "x",
            "point": "sim %s %d UEs async %s" % (prog, ues, mode),
            "lower_is_better": 0,
            "ours": "S-Net pipeline %s on %d UEs (scc, RCK_SNET_ASYNC=%s), "
                    "sim" % (prog, ues, mode),
            "ours_median": one / t if one and t else None, "ours_min": None,
            "ours_max": None, "ours_n": 1, "ref": "", "ref_median": None,
            "ratio_median": None, "status": "", "note": "%.6f s" % t})
    return rows


def run_pipes(build_dir, log=print):
    """Build pipe8 and pipe48 with rck snetc (counted: deterministic chip
    time) and run them on the sim with asynchronous calls on and off;
    returns ({(prog, ues, async): chip seconds}, errors)."""
    rck = os.path.join(build_dir, "src", "tools", "rck")
    src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..",
                       "bench", "snet", "dist")
    errors, points = [], {}
    for prog, records, ues_list in PIPES:
        exe = os.path.join(build_dir, "bench", "snetdist_" + prog)
        p = subprocess.run([rck, "snetc", os.path.join(src, prog + ".snet"),
                            os.path.join(src, "pipe_boxes.c"), "-o", exe],
                           capture_output=True, text=True)
        if p.returncode != 0:
            errors.append("%s: rck snetc failed: %s" % (prog,
                                                        p.stderr[-300:]))
            continue
        for ues in ues_list:
            for mode in (["on"] if ues == 1 else ["on", "off"]):
                env = dict(os.environ, RCK_SIM_REPORT="none",
                           RCK_SNET_DIST="scc", RCK_SNET_ASYNC=mode)
                r = subprocess.run([rck, "run", "-n", str(ues), "--backend",
                                    "sim", exe], input=pipe_input(records),
                                   capture_output=True, text=True, env=env,
                                   timeout=900)
                t = parse_chip_seconds(r.stderr)
                if r.returncode != 0 or t is None:
                    errors.append("%s %d UEs async %s: exit %d" %
                                  (prog, ues, mode, r.returncode))
                    log(errors[-1])
                    continue
                points[(prog, ues, mode)] = t
    return points, errors
