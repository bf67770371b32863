"""Tests of the sim suites' pure functions (python/src/rockcreek/bench/simbench.py)
and plots, on synthetic data (no benchmark is run)."""

import csv
import json
import os
import re

import pytest

from rockcreek.bench import report
from rockcreek.bench import run
from rockcreek.bench import simbench as sb

CALIB_OUT = """\
# sim_calib: core 0 measures
id=info core_mhz=533.000 ncores=48 nmc=4 shm_bytes=67108864 set_map=unsupported
id=mpb_write.x0y0 hops=0 core=0 cycles=39.00
id=mpb_read.x0y0 hops=0 core=0 cycles=20.00
id=mpb_write.x3y0 hops=3 core=6 cycles=91.00
id=mpb_write.x5y3 hops=8 core=46 cycles=130.00
id=dram_read.mc1 hops=5 mc=1 map=default cycles=97.31
id=dram_write_mpbt.mc0 unsupported=shm_set_map
id=bw.uncached.read bytes=65536 map=default cycles=1157488.00
id=local.rdtsc cycles=14.00
id=local.tas_read cycles=20.00
id=irq.gic.same_tile hops=0 core=1 cycles=612.00
id=irq.gic.mesh hops=8 core=47 cycles=600.00
id=irq.pin.same_tile error=irq_raise:bad
#
"""


def rows_by_id(rows):
    return {r["id"]: r for r in rows}


# ---- published data ----------------------------------------------------------

def test_published_tables_have_the_chip_shape():
    for t in (sb.MPB_WRITE_TABLE, sb.MPB_READ_TABLE):
        assert len(t) == sb.MESH_Y and all(len(r) == sb.MESH_X for r in t)
    assert len(sb.MPB_WRITE_BY_HOPS) == len(sb.MPB_READ_BY_HOPS) == 9
    assert sb.MPB_WRITE_TABLE[3][5] == 119 and sb.MPB_READ_TABLE[3][5] == 102
    assert sb.DRAM_BY_MC["hops"] == [0, 5, 2, 7]
    assert sb.BANDWIDTH[("l2hit", "read")] == 285


def _config(*parts):
    return os.path.join(os.path.dirname(__file__), "..", "..", "config",
                        *parts)


def test_published_figures_have_one_home():
    """A figure that fills a key of the built-in chip (its "chip") is not
    also written in the chip file: config/published.json is its only home
    (cmake/published.cmake fills it in); the bench's tables are the file's."""
    with open(_config("published.json")) as f:
        figs = json.load(f)["figures"]
    with open(_config("chips", "scc-533-800-800.json")) as f:
        chip = json.load(f)
    for name, fig in figs.items():
        assert {"value", "unit", "source"} <= set(fig), name
        key = fig.get("chip")
        if key is None:
            continue
        node = chip
        for part in key.split("."):
            assert isinstance(node, dict), (name, key)
            if part not in node:
                break
            node = node[part]
        else:
            pytest.fail("%s: %s is also in the chip file" % (name, key))
    assert sb.MPB_READ_BY_HOPS == figs["mpb.dword_read_by_hops"]["value"]
    for h, r in figs["mpb.line_write_by_hops"]["ranges"].items():
        assert sb.MPB_WRITE_BY_HOPS[int(h)] == tuple(r)
    assert sb.DRAM_BY_MC["dram_write_uc"] == \
        figs["dram.line_write_uncached"]["value"]


def test_tile_hops():
    assert sb.tile_hops(0, 0) == 0
    assert sb.tile_hops(5, 3) == 8
    assert sb.tile_hops(2, 1, 1, 3) == 3


def test_mpb_table_deviations():
    assert sb.mpb_table_deviations(sb.MPB_WRITE_TABLE,
                                   sb.MPB_WRITE_BY_HOPS) == []
    assert sb.mpb_table_deviations(sb.MPB_READ_TABLE, sb.MPB_READ_BY_HOPS) == []
    garbled = [row[:] for row in sb.MPB_READ_TABLE]
    garbled[1][2] = 80  # 3 hops: the series says 72
    dev = sb.mpb_table_deviations(garbled, sb.MPB_READ_BY_HOPS)
    assert dev == [{"x": 2, "y": 1, "hops": 3, "table": 80, "series": 72,
                    "diff": 8}]
    low = [row[:] for row in sb.MPB_WRITE_TABLE]
    low[0][3] = 85  # 3 hops: the series is 89-90
    assert sb.mpb_table_deviations(low, sb.MPB_WRITE_BY_HOPS)[0]["diff"] == -4


# ---- ratios and verdicts -------------------------------------------------------

def test_ratio_to_published():
    assert sb.ratio_to_published(110, 100) == pytest.approx(1.1)
    assert sb.ratio_to_published(89.5, (89, 90)) == 1.0
    assert sb.ratio_to_published(99, (89, 90)) == pytest.approx(1.1)
    assert sb.ratio_to_published(44.5, (89, 90)) == pytest.approx(0.5)
    assert sb.ratio_to_published(None, 5) is None
    assert sb.ratio_to_published(5, None) is None
    assert sb.ratio_to_published(5, 0) is None


def test_within_tolerance():
    assert sb.within(1.05) and sb.within(0.95) and sb.within(1.0)
    assert not sb.within(1.0501) and not sb.within(0.9499)
    assert not sb.within(None)
    assert sb.within(1.1, tol=0.1)


def test_published_text():
    assert sb.published_text(84) == "84"
    assert sb.published_text((89, 90)) == "89-90"
    assert sb.published_text(None) == "-"


def test_bandwidth_mib_s():
    # 1 MiB in 800e6 cycles at 800 MHz: 1 MiB/s
    assert sb.bandwidth_mib_s(1 << 20, 800e6, 800) == pytest.approx(1.0)
    assert sb.bandwidth_mib_s(65536, 1157488, 800) == pytest.approx(43.20,
                                                                    abs=0.01)
    assert sb.bandwidth_mib_s(10, 0) is None
    assert sb.bandwidth_mib_s(10, None) is None


# ---- the calibration program's output ------------------------------------------

def test_parse_calib_output():
    p = sb.parse_calib_output(CALIB_OUT)
    assert p["info"]["core_mhz"] == float(
        re.search(r"core_mhz=(\S+)", CALIB_OUT).group(1))
    assert p["info"]["set_map"] == "unsupported"
    r = p["rows"]
    assert r["mpb_write.x3y0"] == {"id": "mpb_write.x3y0", "hops": 3,
                                   "core": 6, "cycles": 91.0}
    assert r["dram_write_mpbt.mc0"]["unsupported"] == "shm_set_map"
    assert r["bw.uncached.read"]["bytes"] == 65536
    assert r["irq.pin.same_tile"]["error"] == "irq_raise:bad"


def test_parse_calib_strips_ue_prefix():
    p = sb.parse_calib_output("[ 0] id=info core_mhz=533\n"
                              "[ 0] id=local.nop cycles=2\n")
    assert p["rows"]["local.nop"]["cycles"] == 2.0


@pytest.mark.parametrize("text, why", [
    ("id=local.x cycles=1\n", "no info line"),
    ("id=info core_mhz=533\nid=a cycles=1\nid=a cycles=2\n", "given twice"),
    ("id=info core_mhz=533\nid=a\n", "exactly one of"),
    ("id=info core_mhz=533\nid=a cycles=1 unsupported=x\n", "exactly one of"),
    ("id=info core_mhz=533\nid=a cycles=abc\n", "not a valid float"),
    ("id=info core_mhz=533\nid=a cycles=nan\n", "not finite"),
    ("id=info core_mhz=533\nid=a cycles=1 color=red\n", "unknown field"),
    ("id=info core_mhz=533\ncalib: something\n", "not key=value"),
    ("id=info core_mhz=533\ncycles=3\n", "no id"),
    ("id=info\n", "without core_mhz"),
    ("id=info core_mhz=533\nid=info core_mhz=533\n", "info line given twice"),
])
def test_parse_calib_rejects(text, why):
    with pytest.raises(report.BenchParseError, match=why):
        sb.parse_calib_output(text, source="test")


def test_calibration_outputs_equal():
    a = sb.parse_calib_output(CALIB_OUT)
    b = sb.parse_calib_output(CALIB_OUT.replace("91.00", "91.0"))
    c = sb.parse_calib_output(CALIB_OUT.replace("91.00", "92.00"))
    assert sb.calibration_outputs_equal(a, b)
    assert not sb.calibration_outputs_equal(a, c)


def test_catalogue_rows():
    cat = sb.calibration_catalogue()
    ids = [r["id"] for r in cat]
    assert len(ids) == len(set(ids))
    assert sum(1 for r in cat if r["group"] == "MPB") == 48
    assert sum(1 for r in cat if r["group"] == "DRAM") == 12
    assert sum(1 for r in cat if r["group"] == "bandwidth") == 8
    not_hal = {r["name"] for r in cat if r["kind"] == "not_hal"}
    assert {"XCHG", "LOCK CMPXCHG", "NOP", "null system call"} <= not_hal
    for r in cat:
        if r["kind"] == "measure":
            assert r["published"] is not None and r["section"] != "-"
        if r["kind"] == "info":
            assert r["published"] is None


def test_evaluate_calibration():
    rows = sb.evaluate_calibration(sb.parse_calib_output(CALIB_OUT))
    by = rows_by_id(rows)
    assert by["mpb_write.x0y0"]["status"] == sb.PASS
    assert by["mpb_write.x0y0"]["ratio"] == 1.0
    # 91 against 89-90: 1.1% above the range
    assert by["mpb_write.x3y0"]["status"] == sb.PASS
    assert by["mpb_write.x3y0"]["ratio"] == pytest.approx(91 / 90)
    assert by["mpb_write.x3y0"]["table"] == 90
    assert by["mpb_write.x5y3"]["status"] == sb.FAIL
    assert by["mpb_write.x1y0"]["status"] == sb.NOT_MEASURED
    assert by["dram_read.mc1"]["status"] == sb.FAIL  # 97.31 vs 121
    assert "default mapping" in by["dram_read.mc1"]["note"]
    assert by["dram_write_mpbt.mc0"]["status"] == sb.NOT_MODELLED
    assert by["dram_write_mpbt.mc0"]["modelled"] is None
    assert by["bw.uncached.read"]["modelled"] == pytest.approx(28.78, abs=0.01)
    assert by["bw.uncached.read"]["status"] == sb.FAIL
    assert by["local.rdtsc"]["status"] == sb.PASS
    assert by["local.xchg"]["status"] == sb.NOT_HAL
    assert by["local.tas_read"]["status"] == sb.NO_FIGURE
    assert by["local.tas_read"]["modelled"] == 20.0
    assert by["irq.gic.same_tile"]["status"] == sb.PASS
    assert by["irq.gic.mesh"]["status"] == sb.BOUND_FAIL  # 600 is not > 612
    assert by["irq.gic.mesh"]["published_text"] == "> 612"
    assert by["irq.pin.same_tile"]["status"] == sb.ERROR
    assert "irq_raise:bad" in by["irq.pin.same_tile"]["note"]
    json.dumps(rows)  # JSON-able


def test_evaluate_calibration_bound_ok_and_unknown_rows():
    out = ("id=info core_mhz=533\nid=irq.pin.mesh cycles=900\n"
           "id=local.new_thing cycles=7\n")
    by = rows_by_id(sb.evaluate_calibration(sb.parse_calib_output(out)))
    assert by["irq.pin.mesh"]["status"] == sb.BOUND_OK
    assert by["local.new_thing"]["status"] == sb.NO_FIGURE
    assert by["local.new_thing"]["modelled"] == 7.0


def test_evaluate_calibration_without_a_run():
    rows = sb.evaluate_calibration(None)
    statuses = {r["status"] for r in rows}
    assert statuses == {sb.NOT_MEASURED, sb.NOT_HAL}
    s = sb.calibration_summary(rows)
    assert s["compared"] == 0 and s["not_measured"] > 0


def test_calibration_summary_and_table():
    rows = sb.evaluate_calibration(sb.parse_calib_output(CALIB_OUT))
    s = sb.calibration_summary(rows)
    # PASS: mpb_write x0y0, x3y0, mpb_read x0y0, rdtsc, irq gic same tile
    assert s["within"] == 5
    # FAIL: mpb_write x5y3, dram_read mc1, bw uncached read
    assert s["failed"] == 3 and s["compared"] == 8
    assert s["bounds"] == 1 and s["bounds_ok"] == 0
    assert s["not_modelled"] == 1 and s["errors"] == 1
    assert s["text"].startswith("5 of 8 modelled rows within 5%")
    text = sb.calibration_table(rows)
    lines = text.splitlines()
    assert "published" in lines[0] or "published" in lines[1]
    assert any("not a HAL operation: not modelled" in ln and "XCHG" in ln
               for ln in lines)
    assert any("SCC-HARDWARE.md 2.2" in ln for ln in lines)


# ---- sim-speed ---------------------------------------------------------------

REPORT = {
    "rockcreek_sim_report": 1, "chip": "scc-533-800-800",
    "compute_model": {"name": "host", "relative_speed": 0.05}, "nues": 2,
    "ended": "ok", "simulated_cycles": 533000000, "simulated_seconds": 1.0,
    "cores": [{"ue": 0, "handovers": 30}, {"ue": 1, "handovers": 12}],
}


def test_parse_sim_report_sums_cores():
    r = sb.parse_sim_report(REPORT)
    assert r["simulated_seconds"] == 1.0
    assert r["simulated_cycles"] == 533000000
    assert r["handovers"] == 42
    assert r["handovers_source"] == "sum of the cores' handovers"
    assert r["compute_model"] == "host" and r["ended"] == "ok"


@pytest.mark.parametrize("value", [99, {"total": 99, "yields": 3}])
def test_parse_sim_report_prefers_total(value):
    doc = dict(REPORT, handovers=value)
    r = sb.parse_sim_report(doc)
    assert r["handovers"] == 99
    assert r["handovers_source"].startswith("report total")


def test_parse_sim_report_without_handovers():
    doc = dict(REPORT, cores=[{"ue": 0}])
    assert sb.parse_sim_report(doc)["handovers"] is None


@pytest.mark.parametrize("doc", [
    {}, [], {"rockcreek_sim_report": 1},
    {"rockcreek_sim_report": 1, "simulated_seconds": "x",
     "simulated_cycles": 1},
])
def test_parse_sim_report_rejects(doc):
    with pytest.raises(report.BenchParseError):
        sb.parse_sim_report(doc)


def test_parse_sim_summary():
    err = ("[ 0] something\n"
           "rck sim: 48 cores, 150263806 cycles = 0.281921 s of chip time at "
           "533 MHz, in 5.44 s of host time (2.76e+07 cycles per host "
           "second, 5.18% of the chip's speed)\n"
           "rck sim: compute 40.5%, ...; 459758 hand-overs; 0 stale reads\n")
    assert sb.parse_sim_summary(err) == {"host_s": 5.44, "handovers": 459758}
    assert sb.parse_sim_summary("") == {"host_s": None, "handovers": None}


def test_parse_stencil_output():
    out = ("stencil: 256 x 256, 48 UEs\n"
           "stencil: iteration    450  residual 5.378122e-04\n"
           "stencil: done: iterations 500  residual 4.839573065e-04\n"
           "stencil: checksum 3.602283116179e+03  weighted 4.6e+06\n"
           "stencil: time 0.267 s (0.534 ms per iteration, 92.5% in "
           "communication), 120.90 Mupdates/s\n")
    r = sb.parse_stencil_output(out)
    assert r == {"iterations": 500, "checksum": 3602.283116179,
                 "time_s": 0.267}
    with pytest.raises(report.BenchParseError):
        sb.parse_stencil_output("stencil: iteration 1\n")


def test_message_counts():
    assert sb.bench_warmup_reps(4000) == 400
    assert sb.bench_warmup_reps(5) == 2
    assert sb.pingpong_messages(4000) == 8800


def test_speed_point_and_aggregate():
    rep = sb.parse_sim_report(REPORT)
    p = sb.speed_point(3.0, rep, 21)
    assert p["ratio"] == 3.0
    assert p["cycles_per_host_s"] == pytest.approx(533e6 / 3)
    assert p["handovers_per_op"] == 2.0
    assert sb.speed_point(3.0, dict(rep, handovers=None), 21)[
        "handovers_per_op"] is None
    agg = sb.aggregate_speed([dict(p, model_value=5.0),
                              sb.speed_point(5.0, rep, 21),
                              sb.speed_point(4.0, rep, 21)])
    assert agg["ratio"]["median"] == 4.0 and agg["ratio"]["min"] == 3.0
    assert agg["model_value"]["n"] == 1
    assert sb.aggregate_speed([]) == {}


def test_speed_benches_and_verdicts():
    full = sb.speed_benches()
    quick = sb.speed_benches(quick=True)
    assert [b["key"] for b in full] == ["pingpong_32B", "pingpong_1MiB",
                                        "stencil_48", "barrier_48"]
    assert full[2]["argv"] == []  # the stencil's default arguments
    assert quick[0]["argv"] != full[0]["argv"]
    assert "defaults" in full[2]["label"]
    assert "100 iterations" in quick[2]["label"]
    targets = {b["key"]: b["target"] for b in full}
    assert targets == {"pingpong_32B": 10.0, "pingpong_1MiB": None,
                       "stencil_48": 3.0, "barrier_48": None}
    summary = {"pingpong_32B": {"ratio": report.aggregate([9.0, 12.0, 8.0])},
               "stencil_48": {"ratio": report.aggregate([3.5])}}
    v = {x.target: x for x in sb.speed_verdicts(full, summary)}
    assert len(v) == 2  # only benchmarks with a target
    pp = next(x for t, x in v.items() if "32 B" in t)
    st = next(x for t, x in v.items() if "stencil" in t)
    assert pp.status == "MET" and "median 9.00x" in pp.detail
    assert st.status == "NOT MET"
    none = sb.speed_verdicts(full, {})
    assert all(x.status == "NOT EVALUATED" for x in none)


def test_speed_table():
    benches = sb.speed_benches()
    rep = sb.parse_sim_report(REPORT)
    summary = {"pingpong_32B": sb.aggregate_speed(
        [dict(sb.speed_point(20.0, rep, 10), model_value=16.5)])}
    text = sb.speed_table(benches, summary)
    line = next(ln for ln in text.splitlines() if "pingpong 32 B" in ln)
    assert "20.00" in line and "NOT MET" in line and "<= 10x" in line
    assert "16.50 us one-way" in line
    other = next(ln for ln in text.splitlines() if "barrier" in ln)
    assert "no target" in other


# ---- driver pieces -------------------------------------------------------------

def test_split_launcher_args():
    assert run._split_launcher_args(["--report", "f", "--", "-n", "5"]) == (
        ["--report", "f"], ["-n", "5"])
    assert run._split_launcher_args(["-n", "5"]) == ([], ["-n", "5"])


def test_sim_suites_registered_and_defaults():
    assert "sim-calibration" in run.SUITES and "sim-speed" in run.SUITES
    args = run.resolve_args(run.build_parser().parse_args([]))
    assert args.sim_rounds == 3
    args = run.resolve_args(run.build_parser().parse_args(["--quick"]))
    assert args.sim_rounds == 2
    args = run.resolve_args(run.build_parser().parse_args(
        ["--suite", "sim-speed", "--sim-rounds", "1"]))
    assert args.suite == ["sim-speed"] and args.sim_rounds == 1


def test_write_dict_csv(tmp_path):
    path = tmp_path / "x.csv"
    run.write_dict_csv(str(path), ["a", "b"], [{"a": 1, "b": None, "c": 3}])
    with open(path) as f:
        back = list(csv.DictReader(f))
    assert back == [{"a": "1", "b": ""}]


# ---- plots -------------------------------------------------------------------

def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 1000


def test_sim_plots_write_png_files(tmp_path):
    plots = pytest.importorskip("rockcreek.bench.plots")
    rows = sb.evaluate_calibration(sb.parse_calib_output(CALIB_OUT))
    a = plots.plot_calibration_mpb(rows, str(tmp_path / "mpb.png"), "n")
    b = plots.plot_calibration(rows, str(tmp_path / "cal.png"), "n")
    rep = sb.parse_sim_report(REPORT)
    summary = {"pingpong_32B": sb.aggregate_speed(
        [sb.speed_point(2.0, rep, 10), sb.speed_point(3.0, rep, 10)]),
        "stencil_48": sb.aggregate_speed([sb.speed_point(20.0, rep, 5)])}
    c = plots.plot_speed(sb.speed_benches(), summary,
                         str(tmp_path / "speed.png"), "n")
    for p in (a, b, c):
        assert is_png(p), p


def test_sim_plots_without_data(tmp_path):
    plots = pytest.importorskip("rockcreek.bench.plots")
    rows = sb.evaluate_calibration(None)
    assert is_png(plots.plot_calibration_mpb(rows, str(tmp_path / "a.png")))
    assert is_png(plots.plot_calibration([], str(tmp_path / "b.png")))
    assert is_png(plots.plot_speed(sb.speed_benches(), {},
                                   str(tmp_path / "c.png")))


def test_not_run_fails_only_when_asked_for():
    class A:
        suite = None
        rounds = 1
    ctx = run.Context(A(), {})
    run._not_run(ctx, "sim-speed", "not built", "stencil_48")
    assert ctx.failures == []
    A.suite = ["sim-speed"]
    run._not_run(ctx, "sim-speed", "not built", "stencil_48")
    assert ctx.failures == ["sim-speed stencil_48 not run: not built"]
