"""The `power` suite (docs/POWER.md): the sim's power model on the study
of the SCC power-model paper (4th MARC symposium): a memory-bound kernel
(dot product over shared DRAM) and a compute-bound one (matrix multiply)
on 48 cores at every divider 2..16 with the voltage the chip needs, giving
time, energy and GFlop/s per W; the chip's power with 1, 2, 4 .. 48 busy
cores; and the model at the two operating points Intel published (ISSCC
2010: about 25 W and 125 W), printed beside the published value with the
ratio.

Every run is `rck run --backend sim` of bench/power.c (bench_power); the
kernel's energy is the report's power series integrated over the kernel's
interval (the program prints it in chip seconds)."""

import json
import os
import re
import subprocess

from .. import published


def _point(which):
    """(label, core MHz, mesh MHz, volts, published W) of one published
    point (config/published.json, "power.<which>.*")."""
    def v(k):
        return published.value("power.%s.%s" % (which, k))

    def mhz(m):
        return "%g GHz" % (m / 1000.0) if m >= 1000 else "%g MHz" % m
    return ("%g V, cores %s, mesh %s" % (v("volts"), mhz(v("core_mhz")),
                                        mhz(v("mesh_mhz"))),
            float(v("core_mhz")), float(v("mesh_mhz")), v("volts"),
            float(v("total_w")))


# Intel, ISSCC 2010 (Howard et al.): the chip at its two published points,
# 48 cores running. (label, core MHz, mesh MHz, volts, published W)
PUBLISHED = [_point("low"), _point("high")]

LINE = re.compile(r"kernel=(\S+) n=(\d+) fdiv=(\d+) ues=(\d+) "
                  r"t0_s=([0-9.e+-]+) t1_s=([0-9.e+-]+) flops=([0-9.e+-]+)")


def plan(quick):
    return {
        "fdivs": [2, 3, 4, 8, 16] if quick else list(range(2, 17)),
        "cores": [1, 2, 4, 8, 16, 32, 48] if not quick else [1, 4, 16, 48],
        "dot_n": 256 if quick else 512,
        "mm_n": 32 if quick else 48,
        "busy_calls": 20000,
        "period_us": 5,
        # the kernels' compute is timed by the P54C model (p54c-fast:
        # deterministic); without it (no QEMU plugin) by the host compute
        # model, which follows the host's load: then the fastest of
        # `reps` runs counts
        "reps": {"dot": 1, "mm": 1 if quick else 3},
    }


def kernel_energy(doc, t0, t1):
    """Energy (J) of [t0, t1] from the report's power series (samples are
    the mean power of (t_prev, t])."""
    sr = doc["power"]["series"]
    e, prev = 0.0, 0.0
    for t, w in zip(sr["t_s"], sr["chip_w"]):
        lo, hi = max(prev, t0), min(t, t1)
        if hi > lo:
            e += w * (hi - lo)
        prev = t
    return e


def _run(rck, prog, nues, args, report, env_extra, timeout=600):
    env = dict(os.environ, RCK_SIM_REPORT=report, RCK_SIM_SUMMARY="0")
    env.update(env_extra)
    p = subprocess.run([rck, "run", "-n", str(nues), "--backend", "sim",
                        prog] + [str(a) for a in args], env=env,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("%s %s: exit %d: %s" % (prog, args, p.returncode,
                                                   p.stderr[-400:]))
    m = LINE.search(p.stdout)
    if m is None:
        raise RuntimeError("%s %s: no result line in %r" % (prog, args,
                                                            p.stdout[-200:]))
    with open(report) as f:
        doc = json.load(f)
    t0, t1 = float(m.group(5)), float(m.group(6))
    e = kernel_energy(doc, t0, t1)
    return {"kernel": m.group(1), "n": int(m.group(2)),
            "fdiv": int(m.group(3)), "ues": int(m.group(4)),
            "time_s": t1 - t0, "energy_j": e,
            "power_w": e / (t1 - t0) if t1 > t0 else 0.0,
            "flops": float(m.group(7)),
            "run_energy_j": doc["energy"]["total_j"],
            "compute": doc.get("compute_model", {}).get("name"),
            "run_avg_w": doc["power"]["avg_w"]}


def _chip_variant(src, out, core_mhz, mesh_mhz, volts):
    with open(src) as f:
        chip = json.load(f)
    chip["name"] = "scc-isscc-%g" % core_mhz
    chip["frequencies_mhz"]["core"] = core_mhz
    chip["frequencies_mhz"]["mesh"] = mesh_mhz
    d = chip["dvfs"]
    d["fdiv"], d["core_mhz"], d["volts"] = [2], [core_mhz], [volts]
    d["volts_min"] = min(d.get("volts_min", volts), volts)
    d["mesh_volts"] = volts
    d["volts_start"] = volts
    with open(out, "w") as f:
        json.dump(chip, f)


def run_power(build_dir, source_dir, out_dir, quick, log):
    """Returns (data, tables, failures)."""
    rck = os.path.join(build_dir, "src", "tools", "rck")
    prog = os.path.join(build_dir, "bench", "bench_power")
    if not (os.path.exists(rck) and os.path.exists(prog)):
        return None, [], ["power: %s or %s is not built" % (rck, prog)]
    pl = plan(quick)
    rdir = os.path.join(out_dir, "sim-reports")
    os.makedirs(rdir, exist_ok=True)
    env = {"RCK_SIM_POWER_PERIOD_US": str(pl["period_us"])}
    failures, dvfs, cores, pub = [], [], [], []

    def attempt(what, fn):
        try:
            r = fn()
            log("  power %s: %.4g s, %.4g J, %.4g W" % (
                what, r["time_s"], r["energy_j"], r["power_w"]))
            return r
        except (RuntimeError, subprocess.TimeoutExpired, OSError,
                KeyError, ValueError) as e:
            failures.append("power %s: %s" % (what, e))
            log("  power %s: FAILED: %s" % (what, e))
            return None

    comp = "p54c-fast"
    for kernel, n in (("dot", pl["dot_n"]), ("mm", pl["mm_n"])):
        for f in pl["fdivs"]:
            r = None
            for i in range(1 if comp == "p54c-fast" else pl["reps"][kernel]):
                rep = os.path.join(rdir, "power-%s-%d-%d.json" % (kernel, f,
                                                                  i))
                x = attempt("%s fdiv %d" % (kernel, f), lambda: _run(
                    rck, prog, 48, [kernel, n, f], rep,
                    dict(env, RCK_COMPUTE=comp)))
                if x is not None and x["compute"] != comp:
                    log("  power: compute model %s, not %s: host model, "
                        "fastest of %d runs" % (x["compute"], comp,
                                                pl["reps"]["mm"]))
                    comp = "host"
                if x is not None and (r is None or x["time_s"] < r["time_s"]):
                    r = x
            if r is not None:
                r["gflops_per_w"] = (r["flops"] / r["time_s"] / 1e9 /
                                     r["power_w"]) if r["power_w"] else 0
                r["gflops"] = r["flops"] / r["time_s"] / 1e9
                dvfs.append(r)
    for nc in pl["cores"]:
        rep = os.path.join(rdir, "power-busy-%d.json" % nc)
        r = attempt("busy %d cores" % nc, lambda: _run(
            rck, prog, nc, ["busy", pl["busy_calls"]], rep,
            dict(env, RCK_COMPUTE="none")))
        if r is not None:
            cores.append(r)
    src = published.find_chip_file()
    for label, cmhz, mmhz, v, watts in PUBLISHED:
        chip = os.path.join(rdir, "chip-%g.json" % cmhz)
        _chip_variant(src, chip, cmhz, mmhz, v)
        rep = os.path.join(rdir, "power-published-%g.json" % cmhz)
        r = attempt("published point %s" % label, lambda: _run(
            rck, prog, 48, ["busy", pl["busy_calls"]], rep,
            dict(env, RCK_COMPUTE="none", RCK_CHIP=chip)))
        if r is not None:
            pub.append({"point": label, "published_w": watts,
                        "modelled_w": r["power_w"],
                        "ratio": r["power_w"] / watts})
    return ({"plan": pl, "dvfs": dvfs, "cores": cores, "published": pub},
            tables(dvfs, cores, pub), failures)


def tables(dvfs, cores, pub):
    out = []
    t = ["power: the model at Intel's published operating points "
         "(48 cores busy; ISSCC 2010)",
         "  %-38s %12s %12s %7s" % ("point", "modelled W", "published W",
                                    "ratio")]
    for p in pub:
        t.append("  %-38s %12.1f %12.1f %7.2f" % (
            p["point"], p["modelled_w"], p["published_w"], p["ratio"]))
    out.append("\n".join(t))
    comp = sorted({r.get("compute") or "?" for r in dvfs})
    t = ["power: DVFS study, 48 cores (sim, compute model %s; each "
         "divider at the voltage the chip file gives it)" % ", ".join(comp),
         "  %-6s %5s %9s %10s %10s %9s %10s %11s" % (
             "kernel", "fdiv", "MHz", "time ms", "energy mJ", "power W",
             "GFlop/s", "GFlop/s/W")]
    for r in dvfs:
        t.append("  %-6s %5d %9.0f %10.3f %10.3f %9.2f %10.3f %11.4f" % (
            r["kernel"], r["fdiv"], 1600.0 / r["fdiv"], r["time_s"] * 1e3,
            r["energy_j"] * 1e3, r["power_w"], r["gflops"],
            r["gflops_per_w"]))
    out.append("\n".join(t))
    t = ["power: chip power with N busy cores (%g MHz at the start voltage "
         % published.chip_core_mhz() +
         
         "1.1 V, mesh 800 MHz)",
         "  %6s %10s %16s" % ("cores", "power W", "W per added core")]
    for r in cores:
        per = ((r["power_w"] - cores[0]["power_w"]) / (r["ues"] - 1)
               if r["ues"] > 1 and cores else 0.0)
        t.append("  %6d %10.2f %16s" % (r["ues"], r["power_w"],
                                        "%.3f" % per if r["ues"] > 1
                                        else "-"))
    out.append("\n".join(t))
    return out


def plot_power(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axs = plt.subplots(1, 3, figsize=(15, 4.2))
    for kernel, style in (("dot", "o-"), ("mm", "s-")):
        rows = [r for r in data["dvfs"] if r["kernel"] == kernel]
        mhz = [1600.0 / r["fdiv"] for r in rows]
        axs[0].plot(mhz, [r["energy_j"] * 1e3 for r in rows], style,
                    label=kernel)
        axs[1].plot(mhz, [r["gflops_per_w"] for r in rows], style,
                    label=kernel)
    axs[0].set_xlabel("core MHz")
    axs[0].set_ylabel("kernel energy (mJ)")
    axs[0].set_title("energy by divider (48 cores)")
    axs[1].set_xlabel("core MHz")
    axs[1].set_ylabel("GFlop/s per W")
    axs[1].set_title("efficiency by divider")
    c = data["cores"]
    axs[2].plot([r["ues"] for r in c], [r["power_w"] for r in c], "o-")
    axs[2].set_xlabel("busy cores")
    axs[2].set_ylabel("chip power (W)")
    axs[2].set_title("power with busy cores (%g MHz, 1.1 V)"
                     % published.chip_core_mhz())
    for ax in axs[:2]:
        ax.legend()
    for ax in axs:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def suite(ctx, run):
    """The power suite; ``run`` is the driver module (rockcreek.bench.run):
    its helpers are looked up at call time."""
    a = ctx.args
    data, tables, failures = run_power(
        a.build_dir, run.SOURCE_DIR, a.out, a.quick, run.log)
    if data is None:
        run._not_run(ctx, "power", failures[0])
        return run.SuiteResult("power", {}, [])
    if a.suite and "power" in a.suite:
        ctx.failures.extend(failures)
    rows = [{"suite": "power", "metric": "published point", "unit": "W",
             "point": p["point"], "lower_is_better": "",
             "ours": p["modelled_w"], "ref": p["published_w"],
             "ratio_median": p["ratio"], "status": "",
             "note": "Intel ISSCC 2010"} for p in data["published"]]
    return run.SuiteResult(
        "power", data, tables, csv_rows=rows,
        plots=[("power.png", lambda path: plot_power(data, path))])
