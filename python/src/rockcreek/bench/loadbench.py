"""The `native-load` suite: a 2-UE RCCE pingpong on the native backend,
quiet and with busy processes beside it (issue 9, part 5).

Each round runs, in alternating order:
  quiet    rcce_pingpong alone (whatever else the machine runs);
  loaded   the same with BUSY processes spinning beside it (pure CPU
           loops, one per process, forked here and killed after the run);
  loaded, fixed spin
           the same under load with RCK_SPIN_NS=200000, the spin budget the
           native backend used before it counted the host's load (every
           wait spun 200 us when the run's awake cores fit the CPUs).
The figure is the program's one-way latency (half the mean round trip of
its timed loop, 8-byte messages). Target: loaded within 3x of quiet.

The pure functions (summary, verdict, table) are apart from the process
handling so they can be tested without running anything.
"""

import ctypes
import os
import signal
import statistics
import time

from . import report

SIZE = 8
BUSY = 48
TARGET_RATIO = 3.0
CONFIGS = [
    {"key": "quiet", "label": "quiet", "busy": 0, "env": {}},
    {"key": "loaded", "label": "%d busy processes" % BUSY, "busy": BUSY,
     "env": {}},
    {"key": "loaded_fixed_spin",
     "label": "%d busy, RCK_SPIN_NS=200000 (the old policy)" % BUSY,
     "busy": BUSY, "env": {"RCK_SPIN_NS": "200000"}},
]


def plan(quick, rounds=None):
    """Rounds and repetition scale (rcce_pingpong -r: 20000 round trips of
    8 bytes at 0.5)."""
    return {"rounds": rounds or (2 if quick else 5),
            "reps_scale": 0.25 if quick else 0.5,
            "busy": BUSY, "size": SIZE}


# ---------------------------------------------------------------------------
# Pure functions.

def summarize(runs):
    """runs: [{"config": key, "ok": bool, "lat_us": float}] ->
    {key: aggregate of lat_us} for the configs with results."""
    by = {}
    for r in runs:
        if r.get("ok") and r.get("lat_us") is not None:
            by.setdefault(r["config"], []).append(r["lat_us"])
    return {k: report.aggregate(v) for k, v in by.items()}


def verdict(summary):
    """Target: the median loaded latency within TARGET_RATIO x the median
    quiet latency."""
    target = ("2-UE pingpong with %d busy processes within %gx of its quiet "
              "latency" % (BUSY, TARGET_RATIO))
    q, l = summary.get("quiet"), summary.get("loaded")
    if not q or not l:
        return report.Verdict(target, "NOT EVALUATED",
                              "no %s results" % ("quiet" if not q
                                                 else "loaded"))
    r = report.ratio(l["median"], q["median"])
    status = "MET" if r is not None and r <= TARGET_RATIO else "NOT MET"
    return report.Verdict(target, status,
                          "quiet %.3g us, loaded %.3g us: %.3gx (medians "
                          "of %d and %d rounds)"
                          % (q["median"], l["median"], r, q["n"], l["n"]),
                          [{"quiet_us": q["median"],
                            "loaded_us": l["median"], "ratio": r}])


def table(summary):
    """The result table: each configuration's median, best and worst
    round, and its ratio to quiet."""
    q = summary.get("quiet")
    rows = []
    for c in CONFIGS:
        s = summary.get(c["key"])
        if s is None:
            rows.append([c["label"], "not run", "", "", "", ""])
            continue
        r = report.ratio(s["median"], q["median"]) if q else None
        rows.append([c["label"], report.format_value(s["median"]),
                     report.format_value(s["min"]),
                     report.format_value(s["max"]), str(s["n"]),
                     "%.3gx" % r if r is not None else "-"])
    return ("native-load: 2-UE RCCE pingpong, %d-byte one-way latency (us); "
            "target: %d busy within %gx of quiet\n" % (SIZE, BUSY,
                                                       TARGET_RATIO)
            + report.format_table(["configuration", "median", "best",
                                   "worst", "rounds", "/ quiet"], rows))


# ---------------------------------------------------------------------------
# Busy processes.

def _die_with_parent():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def start_busy(n, seconds):
    """Fork n processes that spin on the CPU for at most `seconds` (and die
    with this process). Returns their pids."""
    pids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _die_with_parent()
                end = time.monotonic() + seconds
                x = 0
                while time.monotonic() < end:
                    for i in range(10000):
                        x += i
            finally:
                os._exit(0)
        pids.append(pid)
    return pids


def stop_busy(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in pids:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def _loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[:4]
    except OSError:
        return []


# ---------------------------------------------------------------------------
# The suite.

def suite(ctx, run):
    """run: the rockcreek.bench.run module (Impl helpers, SuiteResult, log)."""
    a = ctx.args
    p = plan(a.quick, getattr(a, "load_rounds", None))
    impl = run.make_native(a, {"pingpong": os.path.join(
        a.build_dir, "bench", "rcce_pingpong")})
    runs = []
    if not impl.has("pingpong"):
        run._not_run(ctx, "native-load", impl.reason)
    else:
        args = ["--", "-m", str(SIZE), "-s", str(SIZE),
                "-r", repr(p["reps_scale"])]
        timeout = min(a.timeout, 180)
        for rnd in range(1, p["rounds"] + 1):
            order = CONFIGS if rnd % 2 else list(reversed(CONFIGS))
            for c in order:
                if ctx.gave_up(impl, "native-load " + c["key"]):
                    continue
                saved = {k: os.environ.get(k) for k in c["env"]}
                os.environ.update(c["env"])
                pids = start_busy(c["busy"], timeout + 30) if c["busy"] \
                    else []
                try:
                    if pids:
                        time.sleep(0.5)  # let them take the CPUs
                    load = _loadavg()
                    rec = ctx.run_bench(
                        impl, "pingpong", "native-load " + c["key"], 2, args,
                        rnd, report.parse_pingpong_output,
                        rounds=p["rounds"], timeout=timeout)
                finally:
                    stop_busy(pids)
                    for k, v in saved.items():
                        if v is None:
                            os.environ.pop(k, None)
                        else:
                            os.environ[k] = v
                rec["config"] = c["key"]
                rec["loadavg"] = load
                rec["lat_us"] = (rec["results"][0]["lat_us"]
                                 if rec["ok"] else None)
                runs.append(rec)
    summary = summarize(runs)
    v = verdict(summary)
    rows = []
    q = summary.get("quiet")
    for c in CONFIGS:
        s = summary.get(c["key"])
        if s is None:
            continue
        rows.append({
            "suite": "native-load", "metric": "lat_us", "unit": "us",
            "point": c["key"], "lower_is_better": 1,
            "ours": "rockcreek native, %s" % c["label"],
            "ours_median": s["median"], "ours_min": s["min"],
            "ours_max": s["max"], "ours_n": s["n"],
            "ref": "quiet" if q else "", "ref_median": q["median"]
            if q else None, "ratio_median": report.ratio(
                s["median"], q["median"]) if q else None,
            "status": v.status if c["key"] == "loaded" else "",
            "note": "target %gx" % TARGET_RATIO
            if c["key"] == "loaded" else ""})
    plots = []
    if summary:
        plots.append(("native-load.png",
                      lambda path: plot(runs, path, p["rounds"])))
    data = {"params": p, "runs": runs, "summary": summary}
    return run.SuiteResult("native-load", data, [table(summary)], [v], rows,
                           plots)


def plot(runs, path, rounds):
    """Latency of every run by round, one series per configuration (log
    scale: a stalled round is orders of magnitude above the others)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for i, c in enumerate(CONFIGS):
        pts = [(r["round"], r["lat_us"]) for r in runs
               if r["config"] == c["key"] and r.get("lat_us")]
        if not pts:
            continue
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="os^"[i],
                linestyle="-", label=c["label"])
        med = statistics.median(y for _, y in pts)
        ax.axhline(med, linestyle=":", linewidth=1,
                   color=ax.lines[-1].get_color())
    ax.set_yscale("log")
    ax.set_xlabel("round")
    ax.set_ylabel("one-way latency, %d B (us)" % SIZE)
    ax.set_title("2-UE RCCE pingpong on native, quiet and under load")
    ax.legend()
    fig.text(0.01, 0.01, "%d interleaved rounds; dotted: medians" % rounds,
             fontsize=8, alpha=0.7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
