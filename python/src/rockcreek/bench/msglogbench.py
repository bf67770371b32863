"""The `msglog` suite: what the message log (RCK_MSGLOG, docs/MONITORING.md)
costs. A 2-UE RCCE pingpong on the native backend, 8 B and 4 KiB, in
interleaved rounds with the log off and on (a file in the output
directory); the reference is the same program with the log off, so the
ratio is the log's cost.

The pure functions (summary, table) are apart from the process handling
so they can be tested without running anything.
"""

import os

from . import loadbench, report

SIZES = [8, 4096]
CONFIGS = [{"key": "off", "label": "log off"},
           {"key": "on", "label": "RCK_MSGLOG on"}]


def plan(quick):
    """Rounds and repetition scale (rcce_pingpong -r)."""
    return {"rounds": 2 if quick else 5, "reps_scale": 0.25 if quick else 0.5,
            "sizes": SIZES}


def summarize(runs):
    """runs: [{"config": key, "ok": bool, "results": [{size, lat_us}]}] ->
    {(key, size): aggregate of lat_us}."""
    flat = []
    for r in runs:
        for x in r.get("results") or [] if r.get("ok") else []:
            if x["size"] in SIZES:
                flat.append({"config": (r["config"], x["size"]), "ok": True,
                             "lat_us": x["lat_us"]})
    return loadbench.summarize(flat)


def rows_of(summary):
    """The CSV rows: per size, log on (ours) against log off (ref)."""
    rows = []
    for size in SIZES:
        on, off = summary.get(("on", size)), summary.get(("off", size))
        if on is None:
            continue
        rows.append(report.result_row(
            "msglog", "lat_us", "us", size, True,
            "rockcreek native, RCK_MSGLOG on", on, "log off", off,
            note="added: %.3g us per message" % (on["median"] - off["median"])
            if off else ""))
    return rows


def table(summary):
    """Medians of both configurations per size, the ratio and the time the
    log adds to a one-way message."""
    out = []
    for size in SIZES:
        off, on = summary.get(("off", size)), summary.get(("on", size))
        if off is None or on is None:
            out.append([str(size), "not run", "", "", ""])
            continue
        out.append([str(size), report.format_value(off["median"]),
                    report.format_value(on["median"]),
                    "%.3gx" % report.ratio(on["median"], off["median"]),
                    report.format_value(on["median"] - off["median"])])
    return ("msglog: 2-UE RCCE pingpong on native, one-way latency (us), "
            "message log off and on\n"
            + report.format_table(["bytes", "log off", "log on", "on / off",
                                   "added"], out))


def suite(ctx, run):
    """run: the rockcreek.bench.run module (Impl helpers, SuiteResult)."""
    a = ctx.args
    p = plan(a.quick)
    impl = run.make_native(a, {"pingpong": os.path.join(
        a.build_dir, "bench", "rcce_pingpong")})
    log_path = os.path.join(a.out, "msglog-bench.jsonl")
    runs = []
    if not impl.has("pingpong"):
        run._not_run(ctx, "msglog", impl.reason)
    else:
        args = ["--", "-m", str(SIZES[0]), "-s", str(SIZES[-1]),
                "-r", repr(p["reps_scale"])]
        for rnd in range(1, p["rounds"] + 1):
            order = CONFIGS if rnd % 2 else list(reversed(CONFIGS))
            for c in order:
                if ctx.gave_up(impl, "msglog " + c["key"]):
                    continue
                saved = os.environ.get("RCK_MSGLOG")
                if c["key"] == "on":
                    os.environ["RCK_MSGLOG"] = log_path
                else:
                    os.environ.pop("RCK_MSGLOG", None)
                try:
                    rec = ctx.run_bench(impl, "pingpong", "msglog " + c["key"],
                                        2, args, rnd,
                                        report.parse_pingpong_output,
                                        rounds=p["rounds"])
                finally:
                    if saved is None:
                        os.environ.pop("RCK_MSGLOG", None)
                    else:
                        os.environ["RCK_MSGLOG"] = saved
                rec["config"] = c["key"]
                runs.append(rec)
        if os.path.exists(log_path):
            os.unlink(log_path)  # tens of MB of lines, measured, not kept
    summary = summarize(runs)
    data = {"params": p, "runs": runs,
            "summary": {"%s_%d" % k: v for k, v in summary.items()}}
    return run.SuiteResult("msglog", data, [table(summary)], [],
                           rows_of(summary), [])
