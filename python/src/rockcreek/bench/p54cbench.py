"""The `p54c` suite (docs/P54C.md): calibration and validation of the P54C
compute model on the sim backend.

* one core's bandwidths (L2 hit, L2 miss, uncached; reads and writes with
  4-byte accesses) beside the published figures (reference SCC-HARDWARE.md
  2.3, from the SCC programmer's guide), target within 10%;
* a working-set sweep (4 KiB to 4 MiB): the L1 and L2 knees at the
  configured sizes;
* the Fiasco.OC-on-SCC copy experiment: one core streams through the MPB
  in 4 KiB packets, the other copies each packet into private memory with
  memcpy and with software allocate-on-write; the published finding is
  that write-around makes the plain copy markedly slower;
* 48 cores reading private memory (12 per controller) against one;
* weak scaling (every core the same work on its own data, 1 to 48 cores)
  under host, p54c-fast and p54c: the host model's bias with scale and
  its run-to-run noise beside the P54C models';
* the 48-core stencil and a 32-core matrix multiply (bench_power mm)
  under host, p54c-fast and p54c: chip time, host time and their ratio (the issue's speed targets: p54c-fast no slower than
  host, p54c within 20x of chip time);
* the compiled memory model (programs built as rckcc -rck-mem builds them:
  stencil_mem, p54c_bench_mem, bench_power_mem, p54c_kern_mem): p54c on
  the compiled engine against QEMU's on the same binary, the ratio printed
  and a verdict within 5% in chip time on every kernel (the bandwidths,
  the sweep, the Fiasco.OC copy, the stream on 1 and 48 cores, the
  one-UE kernels, the 48-core stencil, the matrix multiply), and against
  p54c-fast's host time (within 3x);
* the compiled memory model's one-UE speed (bench/p54c_kern.c: an SSOR
  solve shaped like NAS LU at class S's grid, and the 256 x 256 stencil
  that misses L2 on every line): the kernel's host CPU time under
  p54c-fast (counters only), with the checks but nothing modelled
  (p54c-fast on the checked binary) and under the compiled p54c, in
  interleaved rounds (best of each), against the 3x target.

Every run is `rck run --backend sim` of bench/p54c_bench.c (or the
stencil example); the P54C models are deterministic, so one run a point."""

import os
import re
import subprocess
import time

from .. import published
from . import report

# Published one-core bandwidths, MiB/s (config/published.json, "bw.*";
# SCC-HARDWARE.md 2.3), by this suite's kernel.
PUBLISHED_BW = {
    k: float(published.value(f)) for k, f in (
        ("l2_hit_read", "bw.l2hit.read"),
        ("l2_hit_read_string", "bw.l2hit.read"),
        ("l2_hit_write", "bw.l2hit.write"),
        ("l2_miss_read", "bw.l2miss.read"),
        ("l2_miss_write", "bw.l2miss.write"),
        ("uncached_read", "bw.uncached.read"),
        ("uncached_write", "bw.uncached.write"),
        ("mpbt_read", "bw.mpbt.read"), ("mpbt_write", "bw.mpbt.write"))}

# The C loop's L2-hit read carries its own loop instructions (five per
# load): shown, but the target applies to the string-instruction kernel,
# which reads back to back as a bandwidth measurement would.
NO_TARGET = {"l2_hit_read"}

LINE = re.compile(r"p54c_bench: kernel=(\S+) (.*)")
SUMMARY = re.compile(r"= ([0-9.e+-]+) s of chip time at ([0-9.]+) MHz, in "
                     r"([0-9.e+-]+) s of host time")


def plan(quick):
    return {
        "bw": (64, 1024),
        "sweep_kb": [4, 8, 16, 32, 64, 128, 256, 512, 1024] +
                    ([] if quick else [2048, 4096]),
        "fiasco_mb": 1 if quick else 4,
        "stream_kb": 64 if quick else 128,
        "stencil": ["-i", "100" if quick else "200"],
        "mm": ["mm", 64 if quick else 96, 3],
        # one-UE kernels of bench/p54c_kern.c: (kernel, N, iterations),
        # interleaved rounds
        "one_ue": {"kernels": [("lu", 12, 20 if quick else 50),
                               ("stencil", 256, 20 if quick else 100)],
                   "rounds": 2 if quick else 3},
        "l1_kb": 16, "l2_kb": 256,
        # weak scaling: KiB per core, passes, core counts, host runs
        "weak": {"kb": 32, "passes": 20, "ues": [1, 4, 16, 48],
                 "host_runs": 3},
        # the MetalSVM evaluation's Laplace solver (apps/laplace): UEs,
        # rows (of 512 columns), iterations, versions (strong SVM takes
        # a minute or more per model: left to the full run)
        "laplace": {"ues": 16, "rows": 256, "iters": 20,
                    "versions": ["ircce", "lazy"] +
                                ([] if quick else ["strong"])},
    }


def _exec(rck, prog, nues, args, model, timeout, engine=None):
    """@p prog on @p nues cores of the sim under @p model (and
    RCK_P54C_ENGINE=@p engine): (the finished process, host seconds);
    raises on a failed run."""
    env = dict(os.environ, RCK_COMPUTE=model, RCK_SIM_REPORT="none")
    if engine:
        env["RCK_P54C_ENGINE"] = engine
    t0 = time.monotonic()
    p = subprocess.run([rck, "run", "-n", str(nues), "--backend", "sim",
                        prog] + [str(a) for a in args], env=env,
                       capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError("%s %s (%s): exit %d: %s" % (
            os.path.basename(prog), " ".join(map(str, args)), model,
            p.returncode, (p.stdout + p.stderr)[-500:]))
    return p, wall


def _run(rck, prog, nues, args, model, timeout=1800, engine=None):
    p, wall = _exec(rck, prog, nues, args, model, timeout, engine)
    rows = []
    for m in LINE.finditer(p.stdout):
        kv = dict(f.split("=", 1) for f in m.group(2).split())
        kv["kernel"] = m.group(1)
        rows.append(kv)
    s = SUMMARY.search(p.stderr + p.stdout)
    chip = float(s.group(1)) if s else None
    return rows, chip, wall


def _speed(rck, prog, nues, args, title, tables, log, counted=None,
           checked=None):
    """@p prog on @p nues cores under host, p54c-fast (QEMU) and p54c, and
    @p counted (the same program built with compiled counters, if given)
    under p54c-fast on the compiled engine, and @p checked (built with
    memory checks, if given) under p54c on both engines: chip and host
    seconds; appends the table. @return the rows."""
    sp = []
    runs = [("host", prog, "host", None),
            ("p54c-fast", prog, "p54c-fast", "qemu")]
    if counted and os.path.exists(counted):
        runs.append(("p54c-fast/compiled", counted, "p54c-fast", "compiled"))
    runs.append(("p54c", prog, "p54c", None))
    if checked and os.path.exists(checked):
        runs.append(("p54c/compiled", checked, "p54c", "compiled"))
        runs.append(("p54c/qemu, checked", checked, "p54c", "qemu"))
    for label, exe, model, engine in runs:
        _, chip, wall = _run(rck, exe, nues, args, model, engine=engine)
        sp.append({"model": label, "chip_s": chip, "host_s": wall,
                   "host_per_chip": wall / chip if chip else None})
        log("p54c: %s under %s done" % (title.split(" (")[0], label))
    t = [title, "%-18s %12s %12s %12s" % ("model", "chip s", "host s",
                                          "host/chip")]
    t += ["%-18s %12.4f %12.2f %12.1f" % (x["model"], x["chip_s"],
                                         x["host_s"], x["host_per_chip"])
          for x in sp]
    by = {x["model"]: x for x in sp}
    c, q = by.get("p54c/compiled"), by.get("p54c/qemu, checked")
    if c and q and q["chip_s"]:
        t.append("compiled/QEMU p54c chip time (the checked binary): %.3f "
                 "(target within 5%%)" % (c["chip_s"] / q["chip_s"]))
    tables.append("\n".join(t))
    return sp


# The agreement target (issue 25): compiled and QEMU p54c within 5% in chip
# time on the same binary.
ENGINES_TOL = 0.05


def _engines_verdict(what, compiled_s, qemu_s):
    """The verdict on one kernel's chip times on the two engines."""
    r = compiled_s / qemu_s if qemu_s else float("inf")
    return ("compiled p54c within 5%% of QEMU's p54c in chip time (%s, the "
            "same binary)" % what, abs(r - 1) <= ENGINES_TOL,
            "%.6f s against %.6f s, compiled/QEMU %.3f"
            % (compiled_s, qemu_s, r))


def _engines_kernels(rck, prog, pl, log):
    """The suite's other kernels (the sweep, the Fiasco.OC copy, the
    private-memory stream on 1 and 48 cores) under p54c on both engines,
    the same binary built with memory checks: the chip time each kernel
    measures itself (RCCE_wtime around its loop; every row of the run),
    and the run's whole chip time, which also holds the start-up and the
    C library's work (malloc, memset, printf) that only QEMU counts.
    @return (data, table, verdicts)."""
    runs = [("sweep", 1, ["sweep"] + pl["sweep_kb"]),
            ("fiasco", 2, ["fiasco", pl["fiasco_mb"]]),
            ("stream", 1, ["stream", pl["stream_kb"]]),
            ("stream", 48, ["stream", pl["stream_kb"]])]
    data, verdicts = [], []
    t = ["p54c on both engines (p54c_bench_mem: the same binary): the "
         "kernels' own chip time (sum of the rows; worst row) and the "
         "whole run's",
         "%-8s %4s %12s %12s %8s %9s %10s %9s %9s" % (
             "kernel", "UEs", "compiled s", "QEMU s", "c/QEMU", "worst row",
             "run c/QEMU", "c host s", "Q host s")]
    for kern, nues, args in runs:
        got = {}
        for engine in ("compiled", "qemu"):
            rows, chip, wall = _run(rck, prog, nues, args, "p54c",
                                    engine=engine)
            if chip is None or not rows:
                raise RuntimeError("p54c_bench_mem %s on %d UEs (%s): no "
                                   "result" % (kern, nues, engine))
            got[engine] = ({(r["kernel"], r.get("bytes"), r.get("ue")):
                            float(r["seconds"]) for r in rows}, chip, wall)
        log("p54c: %s on %d UEs on both engines done" % (kern, nues))
        (rc, cc, ch), (rq, cq, qh) = got["compiled"], got["qemu"]
        keys = sorted(k for k in rc if k in rq and rq[k] > 0)
        sc, sq = sum(rc[k] for k in keys), sum(rq[k] for k in keys)
        worst = max(abs(rc[k] / rq[k] - 1) for k in keys) if keys else 1.0
        data.append({"kernel": kern, "ues": nues, "compiled_s": sc,
                     "qemu_s": sq, "ratio": sc / sq if sq else None,
                     "worst_row": worst, "compiled_run_s": cc,
                     "qemu_run_s": cq, "run_ratio": cc / cq,
                     "compiled_host_s": ch, "qemu_host_s": qh})
        t.append("%-8s %4d %12.6f %12.6f %8.3f %8.1f%% %10.3f %9.2f %9.2f"
                 % (kern, nues, sc, sq, sc / sq if sq else 0, worst * 100,
                    cc / cq, ch, qh))
        if kern == "stream" and nues > 1 and keys:
            # every core the same kernel at once: the kernel's time is the
            # slowest core's (and the mean); a single core's share of the
            # controllers' queues moves with the booking order
            mc, mq = max(rc[k] for k in keys), max(rq[k] for k in keys)
            dev = max(abs(mc / mq - 1), abs(sc / sq - 1))
            verdicts.append(("compiled p54c within 5%% of QEMU's p54c in "
                             "chip time (%s on %d UEs, slowest core and "
                             "mean; the same binary)" % (kern, nues),
                             dev <= ENGINES_TOL,
                             "slowest %.6f s against %.6f s, mean ratio "
                             "%.3f, worst single core %.1f%%"
                             % (mc, mq, sc / sq, worst * 100)))
            continue
        verdicts.append(("compiled p54c within 5%% of QEMU's p54c in chip "
                         "time (%s on %d UEs, every row; the same binary)"
                         % (kern, nues), worst <= ENGINES_TOL,
                         "%d rows, sum %.6f s against %.6f s, worst row "
                         "%.1f%%" % (len(keys), sc, sq, worst * 100)))
    return data, "\n".join(t), verdicts


def _compiled_verdicts(by, what):
    """The compiled memory model's targets on a _speed result."""
    c, q = by.get("p54c/compiled"), by.get("p54c/qemu, checked")
    fast = by.get("p54c-fast/compiled")
    v = []
    if c and q:
        v.append(_engines_verdict(what, c["chip_s"], q["chip_s"]))
    if c and fast:
        r = c["host_s"] / fast["host_s"]
        v.append(("compiled p54c within 3x of p54c-fast's host time (%s)"
                  % what, r <= 3,
                  "%.2f s against %.2f s, %.1fx; host/chip %.0f"
                  % (c["host_s"], fast["host_s"], r, c["host_per_chip"])))
    return v


# Kernels the engines cannot agree on, and why (docs/P54C.md, "The
# compiled memory model").
ENGINES_EXCLUDED = {
    "l2_hit_read_string": "inline asm (rep lodsl): neither counted nor "
                          "checked on the compiled engine",
}


def _engines_bw(rck, prog, pl, log):
    """One core's bandwidth kernels under p54c on both engines, the same
    binary built with memory checks: (data, table, verdicts)."""
    res = {}
    for engine in ("compiled", "qemu"):
        rows, _, wall = _run(rck, prog, 1, ["bw"] + list(pl["bw"]), "p54c",
                             engine=engine)
        res[engine] = ({r["kernel"]: float(r["mib_s"]) for r in rows}, wall)
        log("p54c: bandwidths on the %s engine done" % engine)
    c, q = res["compiled"][0], res["qemu"][0]
    t = ["one core's bandwidth under p54c on both engines (p54c_bench_mem: "
         "the same binary), MiB/s; host s: compiled %.2f, QEMU %.2f"
         % (res["compiled"][1], res["qemu"][1]),
         "%-20s %10s %10s %10s %7s" % ("kernel", "compiled", "QEMU",
                                      "published", "c/QEMU")]
    worst = 0.0
    for k in sorted(c):
        if k not in q or q[k] <= 0:
            continue
        r = c[k] / q[k]
        if k not in ENGINES_EXCLUDED:
            worst = max(worst, abs(r - 1))
        t.append("%-20s %10.1f %10.1f %10s %7.3f%s" % (
            k, c[k], q[k], "%.0f" % PUBLISHED_BW[k] if k in PUBLISHED_BW
            else "-", r, " (excluded)" if k in ENGINES_EXCLUDED else ""))
    for k, why in sorted(ENGINES_EXCLUDED.items()):
        t.append("excluded: %s: %s" % (k, why))
    v = [("compiled and QEMU p54c within 5% on every bandwidth kernel "
          "(but the excluded)", worst <= 0.05,
          "largest difference %.1f%%" % (worst * 100))]
    return {"compiled": c, "qemu": q}, "\n".join(t), v


KERN = re.compile(r"p54c_kern: kernel=(\S+) n=(\d+) iters=(\d+) "
                  r"chip_s=([0-9.e+-]+) host_s=([0-9.e+-]+) "
                  r"checksum=(\S+)")


def _one_ue(rck, counted, checked, ou, log):
    """The compiled memory model's one-UE cost: each kernel of
    bench/p54c_kern.c under p54c-fast (the counted build), p54c-fast on
    the checked build (the checks, nothing modelled) and the compiled
    p54c (the checked build), in interleaved rounds; host s is the
    kernel's CPU time as the program measures it (the launcher's start-up
    left out), the best of the rounds. @return (data, table, verdicts)."""
    runs = [("p54c-fast", counted, "p54c-fast"),
            ("checks only", checked, "p54c-fast"),
            ("p54c", checked, "p54c")]
    res, verdicts = [], []
    for kern, n, iters in ou["kernels"]:
        best, chip, sums = {}, {}, set()
        for _ in range(ou["rounds"]):
            for label, exe, model in runs:
                p, _ = _exec(rck, exe, 1, [kern, n, iters], model, 3600,
                             "compiled")
                m = KERN.search(p.stdout)
                if m is None:
                    raise RuntimeError("p54c_kern %s: no result line: %s"
                                       % (kern, p.stdout[-500:]))
                h = float(m.group(5))
                best[label] = min(best.get(label, h), h)
                chip[label] = float(m.group(4))
                sums.add(m.group(6))
        # the same checked binary under QEMU, once (deterministic)
        p, _ = _exec(rck, checked, 1, [kern, n, iters], "p54c", 3600,
                     "qemu")
        m = KERN.search(p.stdout)
        if m is None:
            raise RuntimeError("p54c_kern %s under QEMU: no result line: %s"
                               % (kern, p.stdout[-500:]))
        chip["qemu"] = float(m.group(4))
        sums.add(m.group(6))
        log("p54c: one-UE %s done" % kern)
        row = {"kernel": kern, "n": n, "iters": iters,
               "qemu_chip_s": chip["qemu"],
               "engines_ratio": chip["p54c"] / chip["qemu"],
               "fast_host_s": best["p54c-fast"],
               "checks_host_s": best["checks only"],
               "p54c_host_s": best["p54c"],
               "fast_chip_s": chip["p54c-fast"], "p54c_chip_s": chip["p54c"],
               "ratio": best["p54c"] / best["p54c-fast"],
               "checks_ratio": best["checks only"] / best["p54c-fast"],
               "host_per_chip": best["p54c"] / chip["p54c"],
               "checksums": sorted(sums)}
        res.append(row)
        verdicts.append(("compiled p54c within 3x of p54c-fast's host time "
                         "(1 UE, %s %d, %d iterations)" % (kern, n, iters),
                         row["ratio"] <= 3,
                         "%.4f s against %.4f s, %.1fx (the checks alone "
                         "%.1fx); host/chip %.3f"
                         % (row["p54c_host_s"], row["fast_host_s"],
                            row["ratio"], row["checks_ratio"],
                            row["host_per_chip"])))
        verdicts.append(_engines_verdict("1 UE %s %d, %d iterations"
                                         % (kern, n, iters), chip["p54c"],
                                         chip["qemu"]))
        verdicts.append(("1 UE %s: the same result under every model and "
                         "build" % kern, len(sums) == 1, ", ".join(sums)))
    t = ["one UE, the compiled memory model's cost (bench/p54c_kern.c): "
         "kernel host CPU s, best of %d interleaved rounds" % ou["rounds"],
         "%-8s %5s %6s %10s %10s %10s %7s %7s %9s %9s %9s %6s" % (
             "kernel", "N", "iters", "fast s", "checks s", "p54c s",
             "p54c/f", "chk/f", "host/chip", "chip s", "QEMU s", "c/QEMU")]
    for r in res:
        t.append("%-8s %5d %6d %10.4f %10.4f %10.4f %7.1f %7.1f %9.3f %9.4f "
                 "%9.4f %6.3f"
                 % (r["kernel"], r["n"], r["iters"], r["fast_host_s"],
                    r["checks_host_s"], r["p54c_host_s"], r["ratio"],
                    r["checks_ratio"], r["host_per_chip"], r["p54c_chip_s"],
                    r["qemu_chip_s"], r["engines_ratio"]))
    t.append("fast: p54c-fast (counters only); checks: p54c-fast on the "
             "checked build (nothing modelled); p54c: the compiled p54c; "
             "target p54c/f <= 3; QEMU s: the checked build's chip time "
             "under QEMU, c/QEMU the compiled engine's over it (target "
             "within 5%)")
    return res, "\n".join(t), verdicts


LAPLACE = re.compile(r"laplace version=(\S+) .*time_s=([0-9.e+-]+) "
                     r"checksum=([0-9.e+-]+)")


def _laplace(rck, prog, lp, log):
    """apps/laplace under the three models: chip time of the slowest UE
    (its time_s) and host time. @return (data, table, verdicts)."""
    res = []
    for version in lp["versions"]:
        for model in ("host", "p54c-fast", "p54c"):
            p, wall = _exec(rck, prog, lp["ues"],
                            ["-v", version, "-r", lp["rows"], "-c", 512,
                             "-i", lp["iters"]], model, 3600)
            m = LAPLACE.search(p.stdout)
            if m is None:
                raise RuntimeError("laplace -v %s (%s): no result line: %s"
                                   % (version, model, p.stdout[-500:]))
            res.append({"version": version, "model": model,
                        "time_s": float(m.group(2)),
                        "checksum": m.group(3), "host_s": wall})
            log("p54c: laplace %s under %s done" % (version, model))
    t = ["Laplace (apps/laplace), %d UEs, %d x 512, %d iterations: chip ms "
         "of the slowest UE (host s)" % (lp["ues"], lp["rows"], lp["iters"]),
         "%-8s %18s %18s %18s" % ("version", "host", "p54c-fast", "p54c")]
    for version in lp["versions"]:
        row = {r["model"]: r for r in res if r["version"] == version}
        t.append("%-8s" % version + "".join(
            " %10.2f (%5.1f)" % (row[m]["time_s"] * 1e3, row[m]["host_s"])
            for m in ("host", "p54c-fast", "p54c")))
    same = len({r["checksum"] for r in res}) == 1
    verdicts = [("Laplace: every version under every model computes the same "
                 "grid (checksum)", same,
                 ", ".join(sorted({r["checksum"] for r in res})))]
    return res, "\n".join(t), verdicts


def _weak_point(rck, prog, n, w, model):
    rows, _, _ = _run(rck, prog, n, ["weak", w["kb"], w["passes"]], model)
    secs = [float(r["seconds"]) for r in rows]
    return {"mean_s": sum(secs) / len(secs), "max_s": max(secs),
            "per_ue_s": secs}


def _weak(rck, prog, w, log):
    """The issue's complaint about the host model: the same work per
    core is charged more the more cores run, and differently in every run.
    Every core computes on its own warm data (weak scaling); the reference
    is the one-core time of the same model. @return (data, table,
    verdicts)."""
    res = {}
    for model in ("host", "p54c-fast", "p54c"):
        runs = w["host_runs"] if model == "host" else 1
        res[model] = {}
        for n in w["ues"]:
            pts = [_weak_point(rck, prog, n, w, model) for _ in range(runs)]
            res[model][n] = {
                "mean_s": sum(p["mean_s"] for p in pts) / runs,
                "max_s": max(p["max_s"] for p in pts),
                "run_max_s": [p["max_s"] for p in pts]}
        log("p54c: weak scaling under %s done" % model)
    # the deterministic models, once more at the largest count
    big = w["ues"][-1]
    again = _weak_point(rck, prog, big, w, "p54c-fast")
    t = ["weak scaling: every core %d passes over its own %d KiB; per-core "
         "chip ms (mean / slowest), ratio = slowest / the model's 1-core "
         "time" % (w["passes"], w["kb"]),
         "%-10s %6s %10s %10s %7s %s" % ("model", "cores", "mean", "slowest",
                                        "ratio", "")]
    for model, pts in res.items():
        base = pts[w["ues"][0]]["mean_s"]
        for n in w["ues"]:
            p = pts[n]
            extra = ""
            if model == "host":
                extra = "runs' slowest: " + ", ".join(
                    "%.3f" % (x * 1e3) for x in p["run_max_s"])
            t.append("%-10s %6d %10.3f %10.3f %7.2f %s" % (
                model, n, p["mean_s"] * 1e3, p["max_s"] * 1e3,
                p["max_s"] / base, extra))
    fast = res["p54c-fast"]
    f1 = fast[w["ues"][0]]["mean_s"]
    # equal within 1e-4 (the barrier before the timed loop leaves a cycle
    # or two between cores)
    same = all(abs(fast[n]["max_s"] - f1) <= 1e-4 * f1 for n in w["ues"])
    repeat = again["per_ue_s"] == _weak_point(rck, prog, big, w,
                                              "p54c-fast")["per_ue_s"]
    verdicts = [("p54c-fast: the same per-core compute time at 1 to %d "
                 "cores (no bias with scale)" % big, same,
                 "1 core %.6f ms, %d cores slowest %.6f ms"
                 % (f1 * 1e3, big, fast[big]["max_s"] * 1e3)),
                ("p54c-fast: two runs on %d cores give the same per-core "
                 "times" % big, repeat, "")]
    data = {m: {str(n): v for n, v in pts.items()} for m, pts in res.items()}
    return data, "\n".join(t), verdicts


def _bandwidth(rck, prog, pl, log):
    """One core's bandwidths under p54c beside the published figures:
    @return (rows, table, verdicts); RuntimeError when the model cannot
    run."""
    rows, _, _ = _run(rck, prog, 1, ["bw"] + list(pl["bw"]), "p54c")
    verdicts = []
    log("p54c: bandwidths done")
    bw = []
    for r in rows:
        ref = PUBLISHED_BW.get(r["kernel"])
        ours = float(r["mib_s"])
        bw.append({"kernel": r["kernel"], "ours_mib_s": ours,
                   "published_mib_s": ref,
                   "ratio": ours / ref if ref else None})
    t = ["one core's bandwidth under p54c (4-byte loads/stores), MiB/s",
         "%-16s %10s %10s %7s" % ("kernel", "rockcreek", "published",
                                  "ratio")]
    for b in bw:
        t.append("%-16s %10.1f %10.1f %7.2f" % (
            b["kernel"], b["ours_mib_s"], b["published_mib_s"], b["ratio"]))
        if b["kernel"] in NO_TARGET:
            continue
        verdicts.append(("bandwidth %s within 10%% of the published %.0f "
                         "MiB/s" % (b["kernel"], b["published_mib_s"]),
                         abs(b["ratio"] - 1.0) <= 0.10,
                         "%.1f MiB/s, ratio %.2f" % (b["ours_mib_s"],
                                                     b["ratio"])))
    t.append("l2_hit_read is a C loop (five instructions a load): shown, "
             "not a target; l2_hit_read_string reads with rep lodsl")
    t.append("mpbt_*: shared DRAM mapped MPBT (L2 bypassed, write-combine "
             "buffer), as the published table means")
    return bw, "\n".join(t), verdicts


def run_p54c(build_dir, quick, log):
    """@return (data, tables, verdict tuples (target, met, detail)) or
    (None, [why], []) when the model cannot run here."""
    rck = os.path.join(build_dir, "src", "tools", "rck")
    prog = os.path.join(build_dir, "bench", "p54c_bench")
    if not os.path.exists(prog):
        return None, ["bench/p54c_bench is not built"], []
    pl = plan(quick)
    data = {"plan": pl}
    tables, verdicts = [], []
    try:
        bw, bt, bv = _bandwidth(rck, prog, pl, log)
    except RuntimeError as e:
        msg = str(e)
        if "needs QEMU" in msg or "plugin" in msg:
            return None, ["the P54C model is not available here: " + msg], []
        raise
    data["bandwidth"] = bw
    tables.append(bt)
    verdicts += bv

    rows, _, _ = _run(rck, prog, 1, ["sweep"] + pl["sweep_kb"], "p54c")
    mhz = published.chip_core_mhz()
    sweep = []
    for kb, r in zip(pl["sweep_kb"], rows):
        lines = float(r["bytes"]) / 32.0
        sweep.append({"kb": kb, "cycles_per_line":
                      float(r["seconds"]) * mhz * 1e6 / lines})
    data["sweep"] = sweep
    log("p54c: sweep done")
    cpl = {s["kb"]: s["cycles_per_line"] for s in sweep}
    t = ["working-set sweep under p54c (read twice after a warm-up; L1 %d "
         "KiB, L2 %d KiB)" % (pl["l1_kb"], pl["l2_kb"]),
         "%10s %16s" % ("KiB", "cycles per line")]
    t += ["%10d %16.1f" % (s["kb"], s["cycles_per_line"]) for s in sweep]
    tables.append("\n".join(t))
    l1, l2 = pl["l1_kb"], pl["l2_kb"]
    if all(k in cpl for k in (l1 // 2, 2 * l1, l2 // 2, 2 * l2)):
        verdicts.append(("L1 knee at %d KiB (2x slower past it)" % l1,
                         cpl[2 * l1] >= 1.5 * cpl[l1 // 2],
                         "%.1f -> %.1f cycles per line" % (cpl[l1 // 2],
                                                          cpl[2 * l1])))
        verdicts.append(("L2 knee at %d KiB (4x slower past it)" % l2,
                         cpl[2 * l2] >= 4 * cpl[l2 // 2],
                         "%.1f -> %.1f cycles per line" % (cpl[l2 // 2],
                                                          cpl[2 * l2])))

    rows, _, _ = _run(rck, prog, 2, ["fiasco", pl["fiasco_mb"]], "p54c")
    fi = {r["kernel"]: float(r["mib_s"]) for r in rows}
    data["fiasco"] = fi
    log("p54c: fiasco done")
    plain = fi.get("fiasco_memcpy", 0.0)
    aow = fi.get("fiasco_alloc_on_write", 0.0)
    tables.append("Fiasco.OC copy (%d MiB through the MPB in 4 KiB packets, "
                  "copied to private memory), MiB/s\n"
                  "  memcpy (write-around)     %8.2f\n"
                  "  allocate-on-write         %8.2f\n"
                  "  published: write-around makes the plain copy markedly "
                  "slower" % (pl["fiasco_mb"], plain, aow))
    verdicts.append(("Fiasco.OC: allocate-on-write faster than the plain "
                     "copy (published finding)", aow > plain,
                     "memcpy %.2f MiB/s, allocate-on-write %.2f MiB/s"
                     % (plain, aow)))

    st = {}
    for n in (1, 48):
        rows, _, _ = _run(rck, prog, n, ["stream", pl["stream_kb"]], "p54c")
        secs = [float(r["seconds"]) for r in rows]
        st[n] = {"mean_s": sum(secs) / len(secs), "max_s": max(secs)}
        log("p54c: stream on %d cores done" % n)
    data["stream"] = {str(k): v for k, v in st.items()}
    tables.append("%d KiB of private memory read cold by each core (p54c), "
                  "chip ms\n  1 core: %.3f\n  48 cores (12 per controller): "
                  "mean %.3f, slowest %.3f (%.1fx the single core)"
                  % (pl["stream_kb"], st[1]["mean_s"] * 1e3,
                     st[48]["mean_s"] * 1e3, st[48]["max_s"] * 1e3,
                     st[48]["max_s"] / st[1]["mean_s"]))

    weak, wt, wv = _weak(rck, prog, pl["weak"], log)
    data["weak"] = weak
    tables.append(wt)
    verdicts += wv

    stencil = os.path.join(build_dir, "examples", "stencil")
    if os.path.exists(stencil):
        sp = _speed(rck, stencil, 48, pl["stencil"], "48-core stencil %s"
                    % " ".join(pl["stencil"]), tables, log,
                    counted=stencil + "_counted", checked=stencil + "_mem")
        data["stencil48"] = sp
        by = {x["model"]: x for x in sp}
        fast = by.get("p54c-fast/compiled", by["p54c-fast"])
        verdicts.append(("%s no slower than host (48-core stencil, host "
                         "time)" % fast["model"],
                         fast["host_s"] <= by["host"]["host_s"],
                         "%.2f s against %.2f s" % (fast["host_s"],
                                                    by["host"]["host_s"])))
        verdicts.append(("p54c within 20x of chip time (48-core stencil)",
                         by["p54c"]["host_per_chip"] <= 20,
                         "host/chip %.0f" % by["p54c"]["host_per_chip"]))
        verdicts += _compiled_verdicts(by, "48-core stencil")
    mm = os.path.join(build_dir, "bench", "bench_power")
    if os.path.exists(mm):
        data["mm32"] = _speed(
            rck, mm, 32, pl["mm"], "32-core matrix multiply (bench_power "
            "%s), compute-bound" % " ".join(map(str, pl["mm"])), tables, log,
            counted=mm + "_counted", checked=mm + "_mem")
        verdicts += _compiled_verdicts({x["model"]: x for x in data["mm32"]},
                                       "32-core matrix multiply")
    memb = os.path.join(build_dir, "bench", "p54c_bench_mem")
    if os.path.exists(memb):
        data["engines_bw"], et, ev = _engines_bw(rck, memb, pl, log)
        tables.append(et)
        verdicts += ev
        data["engines_kernels"], et, ev = _engines_kernels(rck, memb, pl,
                                                           log)
        tables.append(et)
        verdicts += ev
    kc = os.path.join(build_dir, "bench", "p54c_kern_counted")
    km = os.path.join(build_dir, "bench", "p54c_kern_mem")
    if os.path.exists(kc) and os.path.exists(km):
        data["one_ue"], ot, ov = _one_ue(rck, kc, km, pl["one_ue"], log)
        tables.append(ot)
        verdicts += ov
    lap = os.path.join(build_dir, "apps", "laplace", "laplace")
    if os.path.exists(lap):
        data["laplace"], lt, lv = _laplace(rck, lap, pl["laplace"], log)
        tables.append(lt)
        verdicts += lv
    return data, tables, verdicts


def plot_p54c(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    weak = data.get("weak")
    fig, axs = plt.subplots(1, 3 if weak else 2,
                            figsize=(18 if weak else 12, 4.2))
    sw = data["sweep"]
    axs[0].plot([s["kb"] for s in sw], [s["cycles_per_line"] for s in sw],
                "o-")
    axs[0].set_xscale("log", base=2)
    axs[0].set_yscale("log")
    for kb, name in ((data["plan"]["l1_kb"], "L1"),
                     (data["plan"]["l2_kb"], "L2")):
        axs[0].axvline(kb, color="grey", ls="--")
        axs[0].text(kb, axs[0].get_ylim()[1], " " + name, va="top")
    axs[0].set_xlabel("working set (KiB)")
    axs[0].set_ylabel("cycles per 32-byte line")
    axs[0].set_title("read sweep under p54c")
    bw = data["bandwidth"]
    x = range(len(bw))
    axs[1].bar([i - 0.2 for i in x], [b["ours_mib_s"] for b in bw], 0.4,
               label="rockcreek p54c")
    axs[1].bar([i + 0.2 for i in x], [b["published_mib_s"] for b in bw], 0.4,
               label="published")
    axs[1].set_xticks(list(x))
    axs[1].set_xticklabels([b["kernel"] for b in bw], rotation=30,
                           ha="right")
    axs[1].set_yscale("log")
    axs[1].set_ylabel("MiB/s")
    axs[1].set_title("one core's bandwidth")
    axs[1].legend()
    if weak:
        for model, pts in weak.items():
            ns = sorted(pts, key=int)
            base = pts[ns[0]]["mean_s"]
            axs[2].plot([int(n) for n in ns],
                        [pts[n]["max_s"] / base for n in ns], "o-",
                        label=model)
        axs[2].axhline(1.0, color="grey", ls="--")
        axs[2].set_xscale("log", base=2)
        axs[2].set_xlabel("cores (the same work on each)")
        axs[2].set_ylabel("slowest core / 1-core time")
        axs[2].set_title("weak scaling: bias with scale")
        axs[2].legend()
    for ax in axs:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def suite(ctx, run):
    """The p54c suite; ``run`` is the driver module (rockcreek.bench.run):
    its helpers are looked up at call time."""
    a = ctx.args
    data, tables, verdicts = run_p54c(a.build_dir, a.quick, run.log)
    if data is None:
        run._not_run(ctx, "p54c", tables[0])
        return run.SuiteResult("p54c", {}, [])
    rows = [{"suite": "p54c", "metric": "bandwidth", "unit": "MiB/s",
             "point": b["kernel"], "lower_is_better": "",
             "ours": b["ours_mib_s"], "ref": b["published_mib_s"],
             "ratio_median": b["ratio"], "status": "",
             "note": "published: reference SCC-HARDWARE.md 2.3"}
            for b in data["bandwidth"]]
    return run.SuiteResult(
        "p54c", data, tables,
        verdicts=[report.Verdict(t, "MET" if ok else "NOT MET", d)
                  for t, ok, d in verdicts],
        csv_rows=rows,
        plots=[("p54c.png", lambda path: plot_p54c(data, path))])
