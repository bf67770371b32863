"""The SVM suite of the bench driver (run.py): the Laplace solver of the
MetalSVM evaluation on the sim backend, SVM strong and lazy and iRCCE.
"""

import json
import os

from .. import published
from . import report
from . import simbench
from . import svmbench

# The driver module (rockcreek.bench.run), bound by each suite's entry
# point: its helpers (SuiteResult, _not_run, log, ...) are looked up at
# call time, so tests that patch them there patch them here too.
drv = None


def _read_sim_doc(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise report.BenchParseError("no readable sim report %s: %s"
                                     % (path, e)) from None


def _laplace_has_svm(prog, args):
    """Whether the laplace program was built with the SVM versions: a
    one-UE run of -v lazy on a tiny grid (exit 2 and a message if not).
    Returns (True, "") or (False, why)."""
    rck = os.path.join(args.build_dir, "src", "tools", "rck")
    rc, out, err, _ = drv.run_process(
        [rck, "run", "-n", "1", "--backend", "native", "--no-prefix", "--",
         prog, "-v", "lazy", "-r", "8", "-c", "8", "-i", "1"], 60)
    if rc == 0:
        return True, ""
    text = (err.strip().splitlines() or out.strip().splitlines() or [""])
    why = next((ln for ln in text if "SVM" in ln), text[-1])
    return False, ("the SVM versions do not run (%s): %s"
                   % ("timed out" if rc is None else "exit %d" % rc, why))


def suite_svm(ctx, run):
    """The Laplace solver of the MetalSVM evaluation on the sim backend:
    SVM strong and lazy (pages on 1 or 4 memory controllers) and iRCCE, 1
    to 48 cores; chip time, speedup, ratio to iRCCE."""
    global drv
    drv = run
    a = ctx.args
    plan = svmbench.laplace_plan(a.quick, a.svm_cores, a.svm_rows,
                                 a.svm_cols, a.svm_iters, a.svm_timeout)
    configs = [svmbench.laplace_config(k) for k in a.svm_configs] \
        if a.svm_configs else list(svmbench.LAPLACE_CONFIGS)
    sim = ctx.impls.get("sim")
    runs = []
    points = []
    skipped = {}       # configuration -> why none of its runs was made
    skipped_runs = {}  # configuration -> why its larger core counts were not
    if sim is None or not sim.has("sim_laplace"):
        why = ("no sim implementation" if sim is None else
               sim.reason if not sim.available else
               "%s is not built (apps/laplace, built with the examples)"
               % os.path.join(a.build_dir, "apps", "laplace", "laplace"))
        drv._not_run(ctx, "svm", why, "laplace")
    else:
        if any(c["version"] != "ircce" for c in configs):
            ok, why = _laplace_has_svm(sim.programs["sim_laplace"], a)
            if not ok:
                for c in configs:
                    if c["version"] != "ircce":
                        skipped[c["key"]] = why
                drv.log("svm laplace SVM versions: NOT RUN: %s" % why)
                if a.suite and "svm" in a.suite and not a.svm_allow_no_svm:
                    ctx.failures.append("svm laplace SVM versions not run: "
                                        + why)
        todo = [c for c in configs if c["key"] not in skipped]
        nruns = len(todo) * len(plan["cores"])
        i = 0
        # After a run of a configuration that timed out or failed, its
        # larger core counts are skipped: they would cost the same or more.
        stopped = {}
        for n in plan["cores"]:
            for c in todo:
                suite = "svm laplace %s" % c["key"]
                i += 1
                if c["key"] in stopped:
                    continue
                rpath = drv._sim_report_path(ctx, "laplace-%s-%d.json"
                                         % (c["key"], n))

                def parse(out, err, secs, source=None, rpath=rpath):
                    res = svmbench.parse_laplace_output(out, source)
                    doc = _read_sim_doc(rpath)
                    rep = simbench.parse_sim_report(doc)
                    if rep["ended"] not in (None, "ok"):
                        raise report.BenchParseError("sim run ended: %s"
                                                     % rep["ended"])
                    glitch = svmbench.compute_glitch(doc)
                    if glitch:
                        raise report.BenchParseError(glitch, source=source)
                    res["host_s"] = round(secs, 3)
                    res["chip_s"] = rep["simulated_seconds"]
                    res["compute_model"] = rep["compute_model"]
                    res["breakdown"] = svmbench.sim_breakdown(doc)
                    return res

                rec = ctx.run_bench(
                    sim, "sim_laplace", "%s, %d cores (%d/%d)"
                    % (suite, n, i, nruns), n,
                    ["--compute", a.svm_compute, "--report", rpath, "--"]
                    + svmbench.laplace_args(c, plan), 1, parse, rounds=1,
                    with_stderr=True, timeout=min(a.timeout,
                                                  plan["timeout"]))
                rec["config"] = c["key"]
                rec["ues"] = n
                runs.append(rec)
                if rec["ok"]:
                    points.append(rec["results"])
                elif rec["returncode"] != 0:
                    # timed out or crashed (not a figure we could not use)
                    stopped[c["key"]] = n
                    later = [m for m in plan["cores"] if m > n]
                    if later:
                        drv.log("    skipping %s on %s cores" % (
                            c["key"], ",".join(str(m) for m in later)))
        for k, n in sorted(stopped.items()):
            later = [m for m in plan["cores"] if m > n]
            skipped_runs[k] = "the run on %d cores failed (%s)%s" % (
                n, next(r.get("error", "?") for r in runs
                        if r["config"] == k and r["ues"] == n),
                "; not run on %s cores" % ",".join(str(m) for m in later)
                if later else "")
    rows = svmbench.laplace_rows(points, configs)
    verdicts = [svmbench.checksum_verdict(rows)]
    compute = sorted({p.get("compute_model") for p in points} - {None})
    notes = [
        "sim backend, compute model %s (program code is charged as host "
        "CPU time scaled to a %g MHz P54C: not deterministic, a busy host "
        "shifts it a little); SVM faults, mails, flushes and the DRAM "
        "traffic of the pages are modelled cycles." % (
            ", ".join(compute) or a.svm_compute, published.chip_core_mhz()),
        "time: the slowest UE's RCCE_wtime (virtual time) around the %d "
        "timed iterations; every iteration ends with a barrier "
        "(svm_barrier; RCCE_barrier for iRCCE)." % plan["iters"],
    ]
    for why in sorted(set(skipped.values())):
        notes.append("%s: not run: %s" % (", ".join(
            k for k in sorted(skipped) if skipped[k] == why), why))
    for k, why in sorted(skipped_runs.items()):
        notes.append("%s: %s" % (k, why))
    notes += svmbench.mc_spread_notes(rows, configs)
    bad = [r for r in runs if not r["ok"] and r["returncode"] == 0]
    if bad:
        notes.append("runs left out (their output could not be used): %s"
                     % "; ".join("%s on %d cores: %s" % (
                         r["config"], r["ues"], r.get("error", "?"))
                         for r in bad))
    tables = [svmbench.laplace_table(rows, configs, "svm: Laplace solver")
              + "\n" + "\n".join(notes)]
    ircce = {r["ues"]: r for r in rows if r["config"] == "ircce"}
    csv_rows = []
    for r in rows:
        ref = ircce.get(r["ues"]) if r["config"] != "ircce" else None
        csv_rows.append({
            "suite": "svm", "metric": "laplace_ms_per_iter", "unit": "ms",
            "point": "%s@%d" % (r["config"], r["ues"]),
            "lower_is_better": 1, "ours": r["label"],
            "ours_median": r["ms_per_iter"], "ours_min": r["ms_per_iter"],
            "ours_max": r["ms_per_iter"], "ours_n": 1,
            "ref": "iRCCE" if ref else "",
            "ref_median": ref["ms_per_iter"] if ref else None,
            "ref_n": 1 if ref else None,
            "ratio_median": r["vs_ircce"] if ref else None,
            "note": "speedup %.3f over %d core(s)" % (r["speedup"],
                                                      r["base_ues"])
            if r["speedup"] is not None else ""})
    note = ("sim backend (compute %s); %d x %d grid, %d iterations"
            % (", ".join(compute) or a.svm_compute, plan["rows"],
               plan["cols"], plan["iters"]))
    plots = [("svm_laplace.png", lambda path: svmbench.plot_laplace(
        rows, path, note, configs))] if rows else []
    files = [("svm-laplace.csv", lambda path: drv.write_dict_csv(
        path, svmbench.LAPLACE_CSV_FIELDS, svmbench.laplace_csv_rows(rows)))]
    data = {"params": dict(plan, configs=[c["key"] for c in configs],
                           compute=a.svm_compute),
            "runs": runs, "rows": rows, "skipped": skipped,
            "skipped_runs": skipped_runs, "notes": notes}
    return drv.SuiteResult("svm", data, tables, verdicts, csv_rows, plots, files)
