"""The `ip` suite (docs/IP.md): IP between two cores. bench/ip_bench, a
socket program linked with librckip, measures netio-style throughput of a
stream (TCP over lwIP, or the socket bypass) and of UDP for messages of
1 B to 32 KiB, and request/response latency beside RCCE's pingpong for
the same sizes, on native and sim. Every run is inside a network namespace
of its own (unshare -n as root, unshare -rn otherwise): the safety rule of
docs/IP.md; without one the suite does not run.

The pure functions (parse, summarize, rows_of, table) are apart from the
process handling so they can be tested without running anything.
"""

import os
import subprocess

from .. import caps
from . import loadbench, report

# (mode, backend): the runs of one round
CONFIGS = [("lwip", "native"), ("bypass", "native"), ("lwip", "sim"),
           ("bypass", "sim")]
TESTS = ["rcce_lat", "stream_lat", "stream_tput", "udp_lat", "udp_tput"]
UNITS = {"rcce_lat": "us", "stream_lat": "us", "udp_lat": "us",
         "stream_tput": "MB/s", "udp_tput": "MB/s"}


def plan(quick):
    """Rounds and ip_bench's arguments (-t bytes per throughput point, -r
    latency round trips)."""
    return {"rounds": 1 if quick else 3,
            "bytes": 262144 if quick else 1 << 20,
            "latency_rounds": 20 if quick else 100}


def netns_prefix():
    """The command that puts a run in a network namespace of its own, or
    (None, why)."""
    tries = []
    if os.geteuid() == 0:
        tries.append(["unshare", "-n"])
    tries.append(["unshare", "-rn"])
    for t in tries:
        try:
            if subprocess.run(t + ["true"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              timeout=30).returncode == 0:
                return t, ""
        except (OSError, subprocess.TimeoutExpired):
            pass
    return None, ("no network namespace (unshare -n as root, unshare -rn "
                  "otherwise): IP benchmarks run only inside one")


def parse(text, source=None):
    """ip_bench's lines -> [{test, size, value, n, lost}]. Raises
    report.BenchParseError on a malformed line."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("ip_bench "):
            continue
        kv = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
        try:
            out.append({"test": kv["test"], "size": int(kv["size"]),
                        "value": float(kv["value"]), "n": int(kv["n"]),
                        "lost": int(kv["lost"])})
        except (KeyError, ValueError):
            raise report.BenchParseError("bad ip_bench line: %r" % line,
                                         source=source)
        if out[-1]["test"] not in TESTS:
            raise report.BenchParseError("unknown ip_bench test: %r" % line,
                                         source=source)
    if not out:
        raise report.BenchParseError("no ip_bench result lines",
                                     source=source)
    return out


def summarize(runs):
    """runs: [{"ok", "mode", "backend", "results"}] -> {(mode, backend,
    test, size): aggregate of value}, and the datagrams lost in all."""
    flat, lost = [], 0
    for r in runs:
        if not r.get("ok"):
            continue
        for x in r.get("results") or []:
            flat.append({"config": (r["mode"], r["backend"], x["test"],
                                    x["size"]),
                         "ok": True, "lat_us": x["value"]})
            lost += x["lost"]
    return loadbench.summarize(flat), lost


def sizes_of(summary):
    return sorted({k[3] for k in summary})


def rows_of(summary):
    """CSV rows: every (mode, backend, test, size), the stream and UDP
    latencies against RCCE's pingpong of the same run's configuration."""
    rows = []
    for (mode, backend, test, size), ours in sorted(summary.items()):
        ref = summary.get((mode, backend, "rcce_lat", size)) \
            if test.endswith("_lat") and test != "rcce_lat" else None
        rows.append(report.result_row(
            "ip", test, UNITS[test], "%s %s %d" % (backend, mode, size),
            test.endswith("_lat"), "librckip %s on %s" % (mode, backend),
            ours, "RCCE pingpong", ref))
    return rows


def table(summary, backend):
    """One table per backend: per size, the medians of every test (the
    stream in both modes; UDP and RCCE from the lwip runs)."""
    out = []
    for size in sizes_of(summary):
        def v(mode, test):
            x = summary.get((mode, backend, test, size))
            return report.format_value(x["median"]) if x else "-"
        out.append([str(size), v("lwip", "rcce_lat"),
                    v("lwip", "stream_lat"), v("bypass", "stream_lat"),
                    v("lwip", "udp_lat"), v("lwip", "stream_tput"),
                    v("bypass", "stream_tput"), v("lwip", "udp_tput")])
    return ("ip on %s: one-way latency (us) and throughput (MB/s), "
            "medians\n" % backend
            + report.format_table(["bytes", "RCCE us", "TCP us",
                                   "bypass us", "UDP us", "TCP MB/s",
                                   "bypass MB/s", "UDP MB/s"], out))


def plot(summary, path, timed=()):
    """Throughput (left) and latency (right) against size; the backends in
    @p timed (chip time: caps.timed) dashed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for (mode, backend, test) in sorted({k[:3] for k in summary}):
        if mode != "lwip" and not test.startswith("stream"):
            continue  # RCCE and UDP are the same in both modes' runs
        pts = sorted((k[3], v["median"]) for k, v in summary.items()
                     if k[:3] == (mode, backend, test))
        label = ("RCCE" if test == "rcce_lat" else
                 {"stream": "TCP" if mode == "lwip" else "bypass",
                  "udp": "UDP"}[test.split("_")[0]]) + " " + backend
        ax = a if test.endswith("_tput") else b
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                markersize=3, label=label,
                linestyle="--" if backend in timed else "-")
    for ax, what in ((a, "throughput [MB/s]"), (b, "one-way latency [us]")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size [bytes]")
        ax.set_ylabel(what)
        ax.grid(True, alpha=0.4)
        ax.legend(fontsize=7)
    a.set_title("netio-style throughput between two cores")
    b.set_title("request/response beside RCCE's pingpong")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def suite(ctx, run):
    """run: the rockcreek.bench.run module (Impl helpers, SuiteResult)."""
    a = ctx.args
    p = plan(a.quick)
    prog = os.path.join(a.build_dir, "bench", "ip_bench")
    rck = os.path.join(a.build_dir, "src", "tools", "rck")
    prefix, why = netns_prefix()
    runs = []
    if not os.access(prog, os.X_OK):
        run._not_run(ctx, "ip", "not built: " + prog)
    elif prefix is None:
        run._not_run(ctx, "ip", why)
    else:
        for mode, backend in CONFIGS:
            def launch(program, nproc, args, mode=mode, backend=backend):
                return (prefix + ["env", "RCK_IP_MODE=" + mode, rck, "run",
                                  "-n", str(nproc), "--backend", backend,
                                  "--no-prefix", program] + args)
            impl = run.Impl("ip-%s-%s" % (mode, backend),
                            "librckip %s (%s)" % (mode, backend),
                            {"ip": prog}, launch)
            args = ["-t", str(p["bytes"]), "-r", str(p["latency_rounds"])]
            for rnd in range(1, p["rounds"] + 1):
                if ctx.gave_up(impl, "ip"):
                    break
                rec = ctx.run_bench(impl, "ip", "ip", 2, args, rnd, parse,
                                    rounds=p["rounds"])
                rec["mode"], rec["backend"] = mode, backend
                runs.append(rec)
    summary, lost = summarize(runs)
    data = {"params": p, "runs": runs, "datagrams_lost": lost,
            "summary": {"%s_%s_%s_%d" % k: v for k, v in summary.items()}}
    tables = [table(summary, b) for b in ("native", "sim")
              if any(k[1] == b for k in summary)]
    try:
        timed = {b for b in ("native", "sim") if caps.timed(rck, b)}
    except caps.CapsError:
        timed = set()  # nothing ran: no plot either
    plots = ([("ip.png", lambda path: plot(summary, path, timed))]
             if summary else [])
    return run.SuiteResult("ip", data, tables, [], rows_of(summary), plots)
