"""The iRCCE and RCCE_comm collectives suites of the bench driver (run.py):
non-blocking pingpong and the collectives, native beside Open MPI and on the sim.
"""


from . import collbench
from . import report

# The driver module (rockcreek.bench.run), bound by each suite's entry
# point: its helpers (SuiteResult, _not_run, log, ...) are looked up at
# call time, so tests that patch them there patch them here too.
drv = None


IRCCE_CSV_FIELDS = ["backend", "metric", "unit", "size", "rcce_median",
                    "rcce_min", "rcce_max", "isend_median", "isend_min",
                    "isend_max", "ssend_median", "ssend_min", "ssend_max",
                    "isend_over_rcce", "ssend_over_rcce", "rounds"]


def _ircce_csv(rows, backend, unit, rounds):
    out = []
    for r in rows:
        d = {"backend": backend, "metric": r["metric"], "unit": unit,
             "size": r["size"], "rounds": rounds,
             "isend_over_rcce": r.get("ratio_isend"),
             "ssend_over_rcce": r.get("ratio_ssend")}
        for m in collbench.IRCCE_MODES:
            a = r.get(m) or {}
            for st in ("median", "min", "max"):
                d["%s_%s" % (m, st)] = a.get(st)
        out.append(d)
    return out


def suite_ircce(ctx, run):
    """iRCCE (isend/irecv+wait, pipelined ssend/srecv) against RCCE
    send/recv: pingpong latency and bandwidth, 8 B .. 4 MiB, 2 UEs; native
    (interleaved rounds) and sim (cycles, compute model none)."""
    global drv
    drv = run
    a = ctx.args
    modes = collbench.IRCCE_MODES
    rounds = a.ircce_rounds
    min_size = max(a.min_size, 8)
    raw = {m: [] for m in modes}
    rck = ctx.impls.get("rockcreek")
    if rck is None or not rck.has("ircce"):
        drv._not_run(ctx, "ircce", rck.reason if rck else "no rockcreek")
    else:
        base = ["-s", str(a.max_size), "-m", str(min_size),
                "-r", repr(a.reps_scale)]
        for rnd in range(1, rounds + 1):
            # Rotate the order of the three modes from round to round.
            order = modes[(rnd - 1) % 3:] + modes[:(rnd - 1) % 3]
            for m in order:
                suite = "ircce %s" % m
                if not ctx.gave_up(rck, suite):
                    raw[m].append(ctx.run_bench(
                        rck, "ircce", suite, 2, ["-M", m] + base, rnd,
                        report.parse_pingpong_output, rounds=rounds,
                        timeout=min(a.timeout, 60)))
    lat = {m: report.aggregate_rounds(drv._ok_results(r), "size", "lat_us")
           for m, r in raw.items()}
    bw = {m: report.aggregate_rounds(drv._ok_results(r), "size", "bw_mbs")
          for m, r in raw.items()}
    lat_rows = collbench.ircce_rows(lat, "lat_us", True)
    bw_rows = collbench.ircce_rows(bw, "bw_mbs", False)
    slow = sorted(round(r["seconds"], 1) for recs in raw.values()
                  for r in recs if r["seconds"] > 10)
    tables = []
    if lat_rows:
        tables += [
            collbench.ircce_table(lat_rows, "ircce (native, %d rounds): "
                                  "one-way latency" % rounds, "us"),
            collbench.ircce_table(bw_rows, "ircce (native): bandwidth",
                                  "MB/s = 10^6 B/s") +
            "\nratio = iRCCE mode / RCCE send-recv of the medians (latency:"
            " below 1 is faster; bandwidth: above 1 is faster)" +
            ("\nnote: %d run(s) took over 10 s (%s s) although their timed "
             "loops are far shorter: a stall outside the timed loop." %
             (len(slow), ", ".join("%.1f" % x for x in slow))
             if slow else "")]
    # sim: one run per mode, compute model none, RCCE_wtime -> cycles.
    sim = ctx.impls.get("sim")
    sim_runs = {}
    sim_pts = {}
    if sim is None or not sim.has("sim_ircce"):
        drv._not_run(ctx, "ircce", sim.reason if sim else "no sim", "sim")
    else:
        for m in modes:
            rpath = drv._sim_report_path(ctx, "ircce-%s.json" % m)

            def parse(out, err, secs, source=None, rpath=rpath):
                res = report.parse_pingpong_output(out, source)
                return {"program": res, "report": drv._read_sim_report(rpath)}
            rec = ctx.run_bench(
                sim, "sim_ircce", "ircce sim %s" % m, 2,
                ["--compute", "none", "--report", rpath, "--", "-M", m,
                 "-s", str(a.max_size), "-m", str(min_size),
                 "-r", repr(a.sim_reps_scale), "-w"], 1, parse, rounds=1,
                with_stderr=True, timeout=min(a.timeout, 300))
            sim_runs[m] = rec
            if rec["ok"]:
                sim_pts[m] = collbench.sim_pingpong_cycles(
                    rec["results"]["program"])
    sim_lat = {m: {s: collbench.single(v["lat_cycles"]) for s, v in p.items()}
               for m, p in sim_pts.items()}
    sim_bw = {m: {s: collbench.single(v["bw_mbs"]) for s, v in p.items()}
              for m, p in sim_pts.items()}
    mhz = collbench.CORE_MHZ
    sim_lat_rows = collbench.ircce_rows(sim_lat, "lat_cycles", True)
    sim_bw_rows = collbench.ircce_rows(sim_bw, "bw_mbs", False)
    if sim_lat_rows:
        tables.append(
            collbench.ircce_table(sim_lat_rows, "ircce (sim, compute none, "
                                  "one deterministic run each): one-way "
                                  "latency", "core cycles at %g MHz" % mhz,
                                  with_best=False) + "\n" +
            collbench.ircce_table(sim_bw_rows, "ircce (sim): bandwidth",
                                  "MB/s of chip time", with_best=False) +
            "\ncycles: the program's RCCE_wtime one-way latency x %g MHz" % mhz)
    csv_rows = (_ircce_csv(lat_rows, "native", "us", rounds)
                + _ircce_csv(bw_rows, "native", "MB/s", rounds)
                + _ircce_csv(sim_lat_rows, "sim", "cycles", 1)
                + _ircce_csv(sim_bw_rows, "sim", "MB/s", 1))
    rows = []
    for m in ("isend", "ssend"):
        rows += drv.csv_rows_for("ircce", "lat_us_" + m, "us", True, m,
                             lat.get(m, {}), "rcce", lat.get("rcce", {}))
        rows += drv.csv_rows_for("ircce", "bw_mbs_" + m, "MB/s", False, m,
                             bw.get(m, {}), "rcce", bw.get("rcce", {}))
        rows += drv.csv_rows_for("ircce", "sim_lat_cycles_" + m, "cycles", True,
                             m, sim_lat.get(m, {}), "rcce",
                             sim_lat.get("rcce", {}))
    labels = collbench.IRCCE_LABELS
    note = "%d native rounds; sim: compute none, %g MHz" % (
        rounds, collbench.CORE_MHZ)
    plots = [("ircce.png", lambda path: drv._plots().plot_ircce(
        {labels[m]: s for m, s in lat.items() if s},
        {labels[m]: s for m, s in bw.items() if s},
        {labels[m]: {k: v["median"] for k, v in s.items()}
         for m, s in sim_lat.items() if s}, path, note))]
    files = [("ircce.csv", lambda path: drv.write_dict_csv(
        path, IRCCE_CSV_FIELDS, csv_rows))]
    data = {"params": {"ues": 2, "max_size": a.max_size,
                       "min_size": min_size, "reps_scale": a.reps_scale,
                       "sim_reps_scale": a.sim_reps_scale, "rounds": rounds},
            "raw": raw, "summary": {"lat_us": lat, "bw_mbs": bw},
            "ratios": {"lat_us": lat_rows, "bw_mbs": bw_rows},
            "sim": {"runs": sim_runs, "lat_cycles": sim_lat_rows,
                    "bw_mbs": sim_bw_rows},
            "slow_runs_s": slow}
    return drv.SuiteResult("ircce", data, tables, [], rows, plots, files)


COLL_CSV_FIELDS = ["backend", "collective", "ues", "size", "unit",
                   "median", "min", "max", "n", "mpi_collective",
                   "mpi_median", "mpi_min", "mpi_max", "ratio_median",
                   "ratio_min", "ratio_comm_over_rcce"]


def suite_collectives(ctx, run):
    """Every RCCE and RCCE_comm collective at 2..48 UEs, 64 B and 64 KiB
    blocks: native in us beside Open MPI's (interleaved rounds), sim in
    cycles (compute model none)."""
    global drv
    drv = run
    a = ctx.args
    ues_list = a.coll_ues
    sizes = ",".join(str(s) for s in a.coll_sizes)
    rounds = a.coll_rounds
    impls = ctx.available("coll")
    raw = {i.name: [] for i in impls}
    for rnd in range(1, rounds + 1):
        per = {i.name: [] for i in impls}
        for n in ues_list:
            for impl in ctx.order(rnd, impls):
                suite = "collectives %d UEs" % n
                if ctx.gave_up(impl, "collectives"):
                    continue
                rec = ctx.run_bench(
                    impl, "coll", suite, n,
                    ["-s", sizes, "-r", repr(a.coll_reps_scale)], rnd,
                    collbench.parse_coll_output, rounds=rounds,
                    timeout=min(a.timeout, 240))
                rec["ues"] = n
                per[impl.name].append(rec)
        for name, recs in per.items():
            raw[name].append(recs)

    def summary_of(name):
        return collbench.aggregate_coll(
            [[p for rec in recs if rec["ok"] for p in rec["results"]]
             for recs in raw.get(name, [])])
    ours = summary_of("rockcreek")
    ref = summary_of("openmpi")
    rows = collbench.coll_rows(ours, ref)
    tables = []
    if rows:
        tables.append(collbench.coll_table(
            rows, "collectives (native, %d rounds, us per call)" % rounds))
    # sim: one run per UE count.
    sim = ctx.impls.get("sim")
    sim_runs = []
    sim_points = []
    if sim is None or not sim.has("sim_coll"):
        drv._not_run(ctx, "collectives", sim.reason if sim else "no sim", "sim")
    else:
        for n in ues_list:
            rpath = drv._sim_report_path(ctx, "coll-%d.json" % n)

            def parse(out, err, secs, source=None, rpath=rpath):
                return {"program": collbench.parse_coll_output(out, source),
                        "report": drv._read_sim_report(rpath)}
            rec = ctx.run_bench(
                sim, "sim_coll", "collectives sim %d UEs" % n, n,
                ["--compute", "none", "--report", rpath, "--", "-s", sizes,
                 "-r", repr(a.coll_sim_reps_scale), "-w"], 1, parse,
                rounds=1, with_stderr=True, timeout=min(a.timeout, 300))
            rec["ues"] = n
            sim_runs.append(rec)
            if rec["ok"]:
                sim_points += rec["results"]["program"]
    sim_rows = collbench.sim_coll_rows(sim_points)
    if sim_rows:
        tables.append(collbench.sim_coll_table(
            sim_rows, "collectives (sim, compute none, one run per UE count;"
            " RCCE_wtime x %g MHz)" % collbench.CORE_MHZ))
    csv_rows = []
    for r in rows:
        o, t = r["ours"], r["ref"] or {}
        csv_rows.append({
            "backend": "native", "collective": r["coll"], "ues": r["ues"],
            "size": r["size"], "unit": "us", "median": o["median"],
            "min": o["min"], "max": o["max"], "n": o["n"],
            "mpi_collective": (collbench.mpi_name(r["mpi_coll"]) if t
                               else None),
            "mpi_median": t.get("median"), "mpi_min": t.get("min"),
            "mpi_max": t.get("max"), "ratio_median": r["ratio_median"],
            "ratio_min": r["ratio_min"]})
    for r in sim_rows:
        csv_rows.append({
            "backend": "sim", "collective": r["coll"], "ues": r["ues"],
            "size": r["size"], "unit": "cycles", "median": r["cycles"],
            "min": r["cycles"], "max": r["cycles"], "n": 1,
            "ratio_comm_over_rcce": r["ratio_vs_rcce"]})
    main_rows = drv.csv_rows_for("collectives", "us_per_call", "us", True,
                             "rockcreek", ours, "openmpi",
                             {r["key"]: r["ref"] for r in rows if r["ref"]})
    plots = [("collectives.png", lambda path: drv._plots().plot_collectives(
        rows, sim_rows, path, "%d native rounds; sim: compute none"
        % rounds))]
    files = [("collectives.csv", lambda path: drv.write_dict_csv(
        path, COLL_CSV_FIELDS, csv_rows))]
    data = {"params": {"ues": ues_list, "sizes": a.coll_sizes,
                       "rounds": rounds, "reps_scale": a.coll_reps_scale,
                       "sim_reps_scale": a.coll_sim_reps_scale},
            "raw": raw, "summary": {"rockcreek": ours, "openmpi": ref},
            "rows": rows, "sim": {"runs": sim_runs, "rows": sim_rows}}
    return drv.SuiteResult("collectives", data, tables, [], main_rows, plots,
                       files)
