"""The sim backend's calibration and speed suites of the bench driver (run.py):
the model beside the published SCC figures, and host time per chip time.
"""

import os

from .. import published
from . import report
from . import simbench

# The driver module (rockcreek.bench.run), bound by each suite's entry
# point: its helpers (SuiteResult, _not_run, log, ...) are looked up at
# call time, so tests that patch them there patch them here too.
drv = None


CALIB_RUNS = 2  # deterministic (compute model none): the second run checks


CALIB_CSV_FIELDS = ["id", "group", "name", "unit", "published", "section",
                    "modelled", "ratio", "status", "note", "hops", "table"]


def suite_sim_calibration(ctx, run):
    """The published SCC measurements repeated on the sim model (compute
    model none; MPB, DRAM, bandwidth, local operations, interrupts)."""
    global drv
    drv = run
    sim = ctx.impls.get("sim")
    runs = []
    if sim is None or not sim.has("sim_calib"):
        why = sim.reason if sim is not None else "no sim implementation"
        drv._not_run(ctx, "sim-calibration", why)
    else:
        for rnd in range(1, CALIB_RUNS + 1):
            if ctx.gave_up(sim, "sim-calibration"):
                break
            rpath = drv._sim_report_path(ctx, "calibration.r%d.json" % rnd)

            def parse(out, err, secs, source=None, rpath=rpath):
                parsed = simbench.parse_calib_output(out, source)
                rep = drv._read_sim_report(rpath)
                if rep["compute_model"] != "none":
                    raise report.BenchParseError(
                        "compute model %s, not none" % rep["compute_model"])
                return {"calib": parsed, "report": rep}

            runs.append(ctx.run_bench(
                sim, "sim_calib", "sim-calibration", 3,
                ["--cores", "0,1,47", "--compute", "none", "--report", rpath,
                 "--"], rnd, parse, rounds=CALIB_RUNS, with_stderr=True,
                timeout=min(ctx.args.timeout, 120)))
    ok = [r["results"] for r in runs if r["ok"]]
    parsed = ok[0]["calib"] if ok else None
    rows = simbench.evaluate_calibration(parsed)
    summary = simbench.calibration_summary(rows)
    deterministic = (all(simbench.calibration_outputs_equal(parsed, o["calib"])
                         for o in ok[1:]) if len(ok) > 1 else None)
    devs = {
        "mpb_write": simbench.mpb_table_deviations(
            simbench.MPB_WRITE_TABLE, simbench.MPB_WRITE_BY_HOPS),
        "mpb_read": simbench.mpb_table_deviations(
            simbench.MPB_READ_TABLE, simbench.MPB_READ_BY_HOPS),
    }
    ndev = sum(len(v) for v in devs.values())
    op = published.operating_point()
    notes = [
        "Published values: the SCC hardware reference SCC-HARDWARE.md "
        "(see docs/CALIBRATION.md; cycles of a %g MHz core, mesh %g MHz and "
        "DDR3 %g MHz), read from config/published.json (their one home)."
        % (op["core"], op["mesh"], op["memory"]),
        "MPB rows are compared with the hop-indexed series of section 2.1, "
        "not its (x, y) tables, which the reference calls partly garbled "
        "(%s). The (x, y) table value is kept in results.json and the CSV."
        % ("as printed in the reference, every cell agrees with the series "
           "at its hop count" if ndev == 0 else
           "as printed in the reference, %d cell(s) lie outside the series "
           "at their hop count" % ndev),
        "Modelled: rck_hal_cycles() before and after, minus one empty "
        "measurement, on core 0 (cores 0, 1, 47; compute model none). "
        "Bandwidths: 64 KiB by DWORD loads/stores (MPBT stores by 32-byte "
        "line), MiB/s at the chip's %.0f MHz." % (
            parsed["info"]["core_mhz"] if parsed else simbench.CORE_MHZ),
    ]
    if parsed:
        notes.append("shm_set_map on this build: %s."
                     % parsed["info"].get("set_map", "?"))
    if deterministic is not None:
        notes.append("Deterministic: %s (%d identical runs)." % (
            "yes" if deterministic else "NO, the runs differ", len(ok)))
    table = ("sim calibration: published vs modelled [within %d%% = PASS]\n"
             % round(simbench.TOLERANCE * 100)
             + simbench.calibration_table(rows) + "\n" + "\n".join(notes)
             + "\nsummary: " + summary["text"])
    verdicts = [report.Verdict(
        "sim calibration: modelled within %d%% of the published value"
        % round(simbench.TOLERANCE * 100),
        "NOT EVALUATED" if not summary["compared"] else
        ("MET" if summary["failed"] == 0 and summary["not_modelled"] == 0
         else "NOT MET"), summary["text"])]
    csv_rows = []
    for r in rows:
        pub = r["published"]
        lo = hi = mid = None
        if isinstance(pub, (tuple, list)):
            lo, hi = pub
            mid = (lo + hi) / 2.0
        elif pub is not None:
            lo = hi = mid = pub
        csv_rows.append({
            "suite": "sim-calibration", "metric": r["id"], "unit": r["unit"],
            "point": r.get("hops", ""), "lower_is_better": "",
            "ours": "sim model", "ours_median": r["modelled"],
            "ours_min": r["modelled"], "ours_max": r["modelled"],
            "ours_n": 1 if r["modelled"] is not None else 0,
            "ref": "published SCC-HARDWARE.md %s" % r["section"],
            "ref_median": mid, "ref_min": lo, "ref_max": hi,
            "ref_n": 1 if pub is not None else 0,
            "ratio_median": r["ratio"], "status": r["status"],
            "note": r["note"]})
    flat = [dict(r, published=r["published_text"]) for r in rows]
    note = "published: SCC-HARDWARE.md; modelled: sim backend, compute none"
    plots = [
        ("sim_calibration_mpb.png",
         lambda path: drv._plots().plot_calibration_mpb(rows, path, note)),
        ("sim_calibration.png",
         lambda path: drv._plots().plot_calibration(rows, path, note)),
    ]
    files = [("sim-calibration.csv", lambda path: drv.write_dict_csv(
        path, CALIB_CSV_FIELDS, flat))]
    data = {"runs": runs, "rows": rows, "summary": summary,
            "deterministic": deterministic,
            "mpb_table_deviations": devs, "notes": notes,
            "info": parsed["info"] if parsed else None}
    return drv.SuiteResult("sim-calibration", data, [table], verdicts, csv_rows,
                       plots, files)


SPEED_CSV_FIELDS = ["benchmark", "label", "metric", "median", "min", "max",
                    "n", "target", "status", "unit"]


def _speed_parser(bench, rpath):
    """The parse function of one sim-speed run: the program's output, the
    report, the summary; returns the round's speed point."""
    def parse(out, err, secs, source=None):
        rep = drv._read_sim_report(rpath)
        if rep["ended"] not in (None, "ok"):
            raise report.BenchParseError("sim run ended: %s" % rep["ended"])
        ops, model = None, None
        if bench["prog"] == "sim_pingpong":
            res = report.parse_pingpong_output(out, source)
            if len(res) != 1:
                raise report.BenchParseError("expected one size, got %d"
                                             % len(res), source=source)
            ops = simbench.pingpong_messages(res[0]["reps"])
            model = res[0]["lat_us"]
        elif bench["prog"] == "sim_barrier":
            res = report.parse_barrier_output(out, source)
            ops = res["reps"] + simbench.bench_warmup_reps(res["reps"])
            model = res["us_per_barrier"]
        else:
            res = simbench.parse_stencil_output(out, source)
            ops = res["iterations"]
            if res["time_s"] is not None and res["iterations"]:
                model = res["time_s"] * 1e3 / res["iterations"]
        pt = simbench.speed_point(secs, rep, ops)
        pt["model_value"] = model
        pt["program"] = res
        pt["report"] = rep
        pt["summary"] = simbench.parse_sim_summary(err)
        return pt
    return parse


def suite_sim_speed(ctx, run):
    """Speed of the sim backend (default compute model): pingpong 32 B and
    1 MiB, the 48-core stencil and barrier; host time / chip time."""
    global drv
    drv = run
    a = ctx.args
    sim = ctx.impls.get("sim")
    benches = [dict(b, prog="sim_" + b["prog"])
               for b in simbench.speed_benches(a.quick)]
    raw = {b["key"]: [] for b in benches}
    rounds = a.sim_rounds
    for rnd in range(1, rounds + 1):
        for b in benches:
            if sim is None or not sim.has(b["prog"]):
                if rnd == 1:
                    why = sim.reason if sim is not None else "no sim"
                    drv._not_run(ctx, "sim-speed", why, b["key"])
                continue
            suite = "sim-speed %s" % b["key"]
            if ctx.gave_up(sim, suite):
                continue
            rpath = drv._sim_report_path(ctx, "%s.r%d.json" % (b["key"], rnd))
            raw[b["key"]].append(ctx.run_bench(
                sim, b["prog"], suite, b["nues"],
                ["--report", rpath, "--"] + b["argv"], rnd,
                _speed_parser(b, rpath), rounds=rounds, with_stderr=True))
    summary = {k: simbench.aggregate_speed(
        [r["results"] for r in recs if r["ok"]]) for k, recs in raw.items()}
    verdicts = simbench.speed_verdicts(benches, summary)
    compute = sorted({r["results"]["report"]["compute_model"]
                      for recs in raw.values() for r in recs if r["ok"]}
                     - {None})
    hsrc = sorted({r["results"]["report"]["handovers_source"]
                   for recs in raw.values() for r in recs if r["ok"]}
                  - {None})
    notes = [
        "host s: wall time of the whole `rck run` (launch included); chip "
        "s: simulated_seconds of the sim's JSON report; Mcycles per host s: "
        "simulated cycles / host s; compute model: %s."
        % (", ".join(compute) or "?"),
        "hand-overs: %s; per message (pingpong: 2 x (reps + warm-up)), per "
        "iteration (stencil), per barrier (barrier; warm-up included)."
        % (", ".join(hsrc) or "not in the report"),
        "model figure: the program's own timing in virtual time (RCCE_wtime)."
        " %d round(s)." % rounds,
    ]
    table = ("sim speed [%d rounds; median and min]\n" % rounds
             + simbench.speed_table(benches, summary) + "\n"
             + "\n".join(notes))
    rows = []
    for b in benches:
        for metric, agg in summary[b["key"]].items():
            is_ratio = metric == "ratio" and b.get("target") is not None
            status = ""
            if is_ratio:
                status = "MET" if agg["median"] <= b["target"] else "NOT MET"
            rows.append({"suite": "sim-speed", "metric": metric,
                         "unit": {"host_s": "s", "chip_s": "s",
                                  "ratio": "host/chip",
                                  "cycles_per_host_s": "cycles/s",
                                  "handovers": "count",
                                  "handovers_per_op": "per " + b["op"],
                                  "model_value": b.get("model_unit", "")
                                  }.get(metric, ""),
                         "point": b["key"], "lower_is_better": "",
                         "ours": "sim", "ours_median": agg["median"],
                         "ours_min": agg["min"], "ours_max": agg["max"],
                         "ours_n": agg["n"],
                         "ref": "target" if is_ratio else "",
                         "ref_median": b["target"] if is_ratio else None,
                         "status": status})
    speed_rows = [{"benchmark": r["point"],
                   "label": next(b["label"] for b in benches
                                 if b["key"] == r["point"]),
                   "metric": r["metric"], "median": r["ours_median"],
                   "min": r["ours_min"], "max": r["ours_max"],
                   "n": r["ours_n"], "target": r["ref_median"],
                   "status": r["status"], "unit": r["unit"]} for r in rows]
    plots = [("sim_speed.png", lambda path: drv._plots().plot_speed(
        benches, summary, path, "%d rounds on %d CPUs; compute model %s"
        % (rounds, os.cpu_count() or 0, ", ".join(compute) or "?")))]
    files = [("sim-speed.csv", lambda path: drv.write_dict_csv(
        path, SPEED_CSV_FIELDS, speed_rows))]
    data = {"params": {"rounds": rounds, "quick": bool(a.quick),
                       "benchmarks": benches},
            "raw": raw, "summary": summary, "notes": notes}
    return drv.SuiteResult("sim-speed", data, [table], verdicts, rows, plots,
                       files)
