"""The mailbox suite of the bench driver (run.py): round trips handler-driven
and polled, and the notification cost of bench/chan.
"""

import os

from . import report
from . import svmbench

# The driver module (rockcreek.bench.run), bound by each suite's entry
# point: its helpers (SuiteResult, _not_run, log, ...) are looked up at
# call time, so tests that patch them there patch them here too.
drv = None


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


def _notify_note(chan_runs, rounds):
    """The backends measured over several rounds (not the timed one): the
    notify table's rows are their best round."""
    several = sorted({r["backend"] for r in chan_runs
                      if r.get("rounds", 1) > 1})
    return ("\n%s: the best of %d round(s) by round trip"
            % (", ".join(several), rounds) if several else "")


def suite_mbox(ctx, run):
    """Mailbox round trips between core 0 and cores 0..8 hops away,
    handler-driven and polled (sim cycles beside the published interrupt
    costs; native us), and the notification cost of ring, tree and polling
    (bench/chan)."""
    global drv
    drv = run
    a = ctx.args
    plan = svmbench.mbox_plan(a.quick, a.mbox_rounds)
    sim = ctx.impls.get("sim")
    tables = []
    sim_runs, sim_points = [], []
    if sim is None or not sim.has("sim_mbox"):
        why = ("no sim implementation" if sim is None else
               sim.reason if not sim.available else
               "bench/mbox/mbox_pingpong is not built (needs src/mbox)")
        drv._not_run(ctx, "mbox", why, "sim")
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
    native = drv.make_native(a, {"mbox": os.path.join(
        a.build_dir, "bench", "mbox", "mbox_pingpong")})
    native_raw = []
    rounds = plan["native_rounds"]
    if not native.has("mbox"):
        drv._not_run(ctx, "mbox", native.reason, "native")
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
    chan_prog, why = drv._chan_program(a)
    chan_plan = svmbench.chan_plan(a.quick)
    chan_runs = []
    if chan_prog is None:
        # Another library's benchmark that may not exist yet: reported,
        # never a failure of this suite.
        drv.log("mbox notify: NOT RUN: %s" % why)
        tables.append("notification cost (ring vs tree vs polling): not "
                      "run: %s" % why)
    else:
        csim = drv.Impl("sim", "rockcreek (sim backend)", {"chan": chan_prog},
                    sim._launch if sim else None,
                    sim is not None and sim.available,
                    sim.reason if sim else "no sim implementation")
        cnat = drv.make_native(a, {"chan": chan_prog})
        todo = []
        if csim.available:
            todo += [(csim, core, ["--compute", "none", "--report",
                                   "none"], 1)
                     for core in chan_plan["sim_cores"]]
        else:
            drv._not_run(ctx, "mbox", csim.reason, "notify sim")
        if cnat.has("chan"):
            todo += [(cnat, core, [], rnd)
                     for rnd in range(1, rounds + 1)
                     for core in chan_plan["native_cores"]]
        else:
            drv._not_run(ctx, "mbox", cnat.reason, "notify native")
        for impl, core, opts, rnd in todo:
            rec = _two_core_run(
                ctx, impl, "chan", "mbox notify %s" % impl.name, core,
                opts + ["--"], rnd, svmbench.parse_chan_output,
                1 if impl is csim else rounds)
            if rec is None:
                continue
            rec["backend"], rec["peer_core"] = impl.name, core
            rec["rounds"] = 1 if impl is csim else rounds
            chan_runs.append(rec)
    # Native rounds: the best round of each (hops, kind), by round trip.
    chan_ok = [r["results"] for r in chan_runs if r["ok"]]
    notify_rows, tput_rows = svmbench.chan_rows(chan_ok)
    notify_rows = svmbench.chan_best(notify_rows, "rtt_cycles", min)
    tput_rows = svmbench.chan_best(tput_rows, "mib_s", max)
    if notify_rows:
        tables.append(svmbench.chan_notify_table(notify_rows) +
                      _notify_note(chan_runs, rounds))
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
    files = [("mbox.csv", lambda path: drv.write_dict_csv(
        path, MBOX_CSV_FIELDS, mbox_csv))]
    data = {"params": plan, "sim": {"runs": sim_runs, "rows": sim_rows},
            "native": {"runs": native_raw, "rows": native_rows},
            "reference": ref_rows,
            "notify": {"program": chan_prog, "why_not": why or None,
                       "runs": chan_runs, "rows": notify_rows,
                       "tput": tput_rows}}
    return drv.SuiteResult("mbox", data, tables, verdicts, csv_rows, plots,
                       files)


MBOX_CSV_FIELDS = ["backend", "unit", "mode", "hops", "peer_core", "n",
                   "oneway", "oneway_min", "rtt", "send", "oneway_best",
                   "oneway_min_best", "rtt_best", "send_best"]
