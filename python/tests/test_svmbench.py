"""Tests of the svm and mbox suites' pure functions
(python/src/rockcreek/bench/svmbench.py), their plots and the run.py plumbing, on
synthetic data (no benchmark is run)."""

import json
import os

import pytest

from rockcreek.bench import report
from rockcreek.bench import run
from rockcreek.bench import simbench
from rockcreek.bench import svmbench as sv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def lap_line(version="lazy", mc="4", ues=8, time_s=0.01, checksum=1234.5,
             extra=""):
    return ("laplace version=%s mc=%s ues=%d rows=1024 cols=512 iters=10 "
            "barrier=1 time_s=%r checksum=%.15e%s" % (
                version, mc, ues, time_s, checksum, extra))


def lap_point(version, mc, ues, time_s, checksum=1234.5, faults=None):
    d = {"version": version, "mc": mc, "ues": ues, "rows": 1024,
         "cols": 512, "iters": 10, "barrier": 1, "time_s": time_s,
         "checksum": checksum}
    if faults is not None:
        d["faults"] = faults
        d["soft_faults"] = 3 * faults
    return d


# ---- laplace: parsing -------------------------------------------------------

def test_parse_laplace_line_with_prefix_and_comments():
    text = "# comment\n\n[ 0] " + lap_line(extra=" max_diff=0.000000e+00 "
                                           "faults=1234 soft_faults=5") + "\n"
    r = sv.parse_laplace_output(text, "t")
    assert r["version"] == "lazy" and r["mc"] == 4 and r["ues"] == 8
    assert r["time_s"] == 0.01 and r["checksum"] == 1234.5
    assert r["max_diff"] == 0.0 and r["faults"] == 1234
    assert r["soft_faults"] == 5


def test_parse_laplace_ircce_has_no_mc():
    r = sv.parse_laplace_output(lap_line("ircce", "-"))
    assert r["mc"] is None
    assert sv.laplace_config_key(r) == "ircce"
    assert sv.laplace_config_key(
        sv.parse_laplace_output(lap_line("strong", "1"))) == "strong-mc1"


@pytest.mark.parametrize("text, why", [
    ("", "no 'laplace"),
    ("stencil: done\n", "not a laplace result line"),
    (lap_line() + "\n" + lap_line(), "second result line"),
    (lap_line(version="eager"), "not valid"),
    (lap_line().replace(" checksum=", " checksum2="), "unknown field"),
    (lap_line().replace(" time_s=0.01", ""), "missing field"),
    (lap_line(time_s=-1.0), "not valid"),
    (lap_line().replace("checksum=1.234500000000000e+03", "checksum=nan"),
     "not finite"),
    (lap_line() + " ues=3", "given twice"),
    (lap_line() + " junk", "not key=value"),
])
def test_parse_laplace_rejects(text, why):
    with pytest.raises(report.BenchParseError, match=why):
        sv.parse_laplace_output(text, "src")


# ---- laplace: plan, arguments, rows, tables, verdict ------------------------

def test_plan_full_quick_and_overrides():
    full = sv.laplace_plan(False)
    assert full["cores"] == [1, 2, 4, 8, 16, 24, 32, 48]
    assert (full["rows"], full["cols"]) == (1024, 512)
    assert full["timeout"] > 0
    quick = sv.laplace_plan(True)
    assert len(quick["cores"]) < len(full["cores"])
    assert quick["iters"] <= full["iters"]
    p = sv.laplace_plan(False, cores=[1, 4, 100], rows=50, iters=3,
                        timeout=7)
    assert p["cores"] == [1, 4]  # 100 cores cannot split 48 interior rows
    assert p["rows"] == 50 and p["iters"] == 3 and p["cols"] == 512
    assert p["timeout"] == 7
    # the table of plans is not modified by overrides
    assert sv.laplace_plan(False)["cores"][-1] == 48


def test_laplace_args():
    plan = {"rows": 64, "cols": 32, "iters": 5, "cores": [1]}
    assert sv.laplace_args(sv.laplace_config("lazy-mc1"), plan) == [
        "-v", "lazy", "-r", "64", "-c", "32", "-i", "5", "-m", "1"]
    assert sv.laplace_args(sv.laplace_config("ircce"), plan) == [
        "-v", "ircce", "-r", "64", "-c", "32", "-i", "5"]
    with pytest.raises(KeyError):
        sv.laplace_config("eager-mc2")


def sample_points():
    return [
        lap_point("ircce", None, 1, 0.100),
        lap_point("ircce", None, 4, 0.030),
        lap_point("lazy", 4, 1, 0.200, faults=100),
        lap_point("lazy", 4, 4, 0.080, faults=880),
        lap_point("strong", 1, 4, 0.500, faults=4000),
    ]


def test_laplace_rows_speedup_efficiency_and_ratio():
    rows = sv.laplace_rows(sample_points())
    assert [(r["config"], r["ues"]) for r in rows] == [
        ("strong-mc1", 4), ("lazy-mc4", 1), ("lazy-mc4", 4), ("ircce", 1),
        ("ircce", 4)]
    by = {(r["config"], r["ues"]): r for r in rows}
    lz = by[("lazy-mc4", 4)]
    assert lz["speedup"] == pytest.approx(2.5)
    assert lz["efficiency"] == pytest.approx(2.5 / 4)
    assert lz["vs_ircce"] == pytest.approx(0.08 / 0.03)
    assert lz["ms_per_iter"] == pytest.approx(8.0)
    assert lz["faults_per_ue_iter"] == pytest.approx(880 / 40.0)
    # strong-mc1 has no 1-core run: its base is its fewest cores
    st = by[("strong-mc1", 4)]
    assert st["base_ues"] == 4 and st["speedup"] == pytest.approx(1.0)
    assert by[("ircce", 4)]["vs_ircce"] == pytest.approx(1.0)
    assert by[("ircce", 1)]["faults"] is None


def test_laplace_rows_later_duplicate_wins():
    pts = [lap_point("ircce", None, 1, 0.1), lap_point("ircce", None, 1, 0.2)]
    rows = sv.laplace_rows(pts)
    assert len(rows) == 1 and rows[0]["time_s"] == 0.2


def test_laplace_table_text():
    pts = sample_points()
    pts[2]["breakdown"] = {"fractions": {"compute": 0.5, "dram": 0.25,
                                         "wait": 0.25},
                           "mc_queue_cycles": [10, 0, 0, 5]}
    pts[2]["host_s"] = 1.5
    text = sv.laplace_table(sv.laplace_rows(pts), title="T")
    assert text.startswith("T [1024 x 512 grid, 10 iterations")
    assert "ms per iteration" in text and "speedup" in text
    assert "iRCCE" in text and "SVM lazy," in text
    assert "page faults per core and iteration" in text
    assert "22.00" in text  # 880 faults / (4 cores x 10 iterations)
    assert "pages (re)read" in text and "66.0" in text
    assert "where all cores' cycles went" in text
    assert "25.0" in text and "1.50" in text
    assert sv.laplace_table([], title="T") == "T: no results"


def test_checksum_verdict():
    rows = sv.laplace_rows(sample_points())
    v = sv.checksum_verdict(rows)
    assert v.status == "MET" and "5 runs" in v.detail
    pts = sample_points()
    pts[3]["checksum"] = 1234.25
    v = sv.checksum_verdict(sv.laplace_rows(pts))
    assert v.status == "NOT MET" and "SVM lazy, 4 MCs on 4 cores" in v.detail
    assert sv.checksum_verdict(rows[:1]).status == "NOT EVALUATED"
    # different grids are compared separately
    other = lap_point("ircce", None, 2, 0.1, checksum=99.0)
    other["rows"] = 64
    assert sv.checksum_verdict(
        sv.laplace_rows(sample_points() + [other])).status == "MET"


def test_sim_breakdown():
    doc = {"cycles_all_cores": {"compute": 30, "dram": 10, "wait": 60,
                                "other": 0},
           "memory_controllers": [{"accesses": 5, "queue_cycles": 7},
                                  {"accesses": 0, "queue_cycles": 0}],
           "handovers": 42}
    b = sv.sim_breakdown(doc)
    assert b["fractions"]["wait"] == pytest.approx(0.6)
    assert b["mc_accesses"] == [5, 0] and b["mc_queue_cycles"] == [7, 0]
    assert b["handovers"] == 42
    assert sv.sim_breakdown({}) == {}
    assert sv.sim_breakdown({"cycles_all_cores": {"compute": 0}}) == {}


def test_sim_breakdown_mc_shares_and_spread_notes():
    doc = {"memory_controllers": [{"accesses": 0}, {"accesses": 0},
                                  {"accesses": 990}, {"accesses": 10}]}
    b = sv.sim_breakdown(doc)
    assert b["mc_shares"] == [0.0, 0.0, 0.99, 0.01]
    pts = sample_points()
    pts[3]["breakdown"] = b   # lazy-mc4 on 4 cores
    pts[4]["breakdown"] = b   # strong-mc1: meant for one controller
    rows = sv.laplace_rows(pts)
    notes = sv.mc_spread_notes(rows)
    assert len(notes) == 1
    assert "lazy-mc4 on 4 cores (99.0% of the accesses on MC2)" in notes[0]
    assert "strong-mc1" not in notes[0]
    even = {"memory_controllers": [{"accesses": 25}] * 4,
            "cycles_all_cores": {"compute": 1, "dram": 1}}
    pts[3]["breakdown"] = sv.sim_breakdown(even)
    assert sv.mc_spread_notes(sv.laplace_rows(pts)) == []
    text = sv.laplace_table(sv.laplace_rows(pts))
    assert "25/25/25/25" in text


def test_compute_glitch():
    ok = {"cores": [{"ue": 0, "compute": 10 ** 9}]}
    assert sv.compute_glitch(ok) is None
    bad = {"cores": [{"ue": 0, "compute": 5},
                     {"ue": 1, "compute": 140738441053395}]}
    text = sv.compute_glitch(bad)
    assert "UE 1" in text and "2^47" in text and "UE 0" not in text
    assert sv.compute_glitch({}) is None


def test_laplace_csv_rows_are_flat():
    pts = sample_points()
    pts[0]["breakdown"] = {"fractions": {"compute": 1.0}}
    rows = sv.laplace_csv_rows(sv.laplace_rows(pts))
    assert all(set(r) <= set(sv.LAPLACE_CSV_FIELDS) for r in rows)
    assert any(r["frac_compute"] == 1.0 for r in rows)


# ---- mbox -------------------------------------------------------------------

def mbox_line(mode="handler", core=1, hops=0, oneway=739.0, rtt=1506.1,
              send=146.6, mhz=533.0):
    us = lambda c: c / mhz  # noqa: E731
    return ("mode=%s peer_core=%d hops=%d reps=100 core_mhz=%.0f "
            "rtt_us=%.4f oneway_us=%.4f oneway_min_us=%.4f send_us=%.4f "
            "rtt_cycles=%.1f oneway_cycles=%.1f oneway_min_cycles=%.1f "
            "send_cycles=%.1f" % (mode, core, hops, mhz, us(rtt), us(oneway),
                                  us(oneway), us(send), rtt, oneway, oneway,
                                  send))


SIM_MBOX = [mbox_line(), mbox_line(core=47, hops=8, oneway=981.0, rtt=1990.1,
                                   send=308.6),
            mbox_line("polled", oneway=256.3, rtt=544.9),
            mbox_line("polled", 47, 8, 351.0, 730.1, 308.6)]


def test_parse_mbox_output():
    pts = sv.parse_mbox_output("# x\n" + "\n".join(SIM_MBOX) + "\n")
    assert len(pts) == 4
    assert pts[1]["peer_core"] == 47 and pts[1]["hops"] == 8
    assert pts[1]["oneway_cycles"] == 981.0
    # a clock difference may be slightly negative on the host
    neg = mbox_line().replace("oneway_min_us=1.3865", "oneway_min_us=-0.01")
    assert sv.parse_mbox_output(neg)[0]["oneway_min_us"] == -0.01
    with pytest.raises(report.BenchParseError, match="no mbox_pingpong"):
        sv.parse_mbox_output("# nothing\n")
    with pytest.raises(report.BenchParseError, match="not valid"):
        sv.parse_mbox_output(mbox_line(mode="irq"))
    with pytest.raises(report.BenchParseError, match="missing"):
        sv.parse_mbox_output(mbox_line().replace(" send_cycles=146.6", ""))


def test_mbox_sim_rows_and_table():
    rows = sv.mbox_sim_rows(sv.parse_mbox_output("\n".join(SIM_MBOX)))
    assert [(r["mode"], r["hops"]) for r in rows] == [
        ("handler", 0), ("handler", 8), ("polled", 0), ("polled", 8)]
    assert rows[0]["oneway"] == 739.0 and rows[0]["send"] == 146.6
    text = sv.mbox_sim_table(rows)
    assert "739.0" in text and "1990" in text and "one-way" in text


def test_mbox_reference_rows_and_verdict():
    rows = sv.mbox_sim_rows(sv.parse_mbox_output("\n".join(SIM_MBOX)))
    ref = sv.mbox_reference_rows(rows)
    assert [r["status"] for r in ref] == [
        simbench.BOUND_OK, simbench.BOUND_OK, sv.KERNEL_PATH]
    assert ref[0]["ratio"] == pytest.approx(739.0 / 612)
    assert ref[2]["ratio"] == pytest.approx(146.6 / 684)
    assert sv.mbox_verdict(ref).status == "MET"
    text = sv.mbox_reference_table(ref)
    assert ">= 612 (ipi_delivery_min)" in text and "684" in text
    assert "1.208" in text
    # a model that delivers a mail faster than the chip's interrupt
    fast = sv.mbox_reference_rows([dict(rows[0], oneway=500.0)])
    assert fast[0]["status"] == simbench.BOUND_FAIL
    assert sv.mbox_verdict(fast).status == "NOT MET"
    # the kernel path gets a ratio, never a verdict
    close = sv.mbox_reference_rows([dict(rows[0], send=690.0)])
    assert close[-1]["status"] == sv.KERNEL_PATH
    assert close[-1]["ratio"] == pytest.approx(690.0 / 684)
    empty = sv.mbox_reference_rows([])
    assert all(r["status"] == simbench.NOT_MEASURED for r in empty)
    assert sv.mbox_verdict(empty).status == "NOT EVALUATED"


def test_published_irq_is_the_published_file():
    """PUBLISHED_IRQ is read from config/published.json (no copy)."""
    with open(os.path.join(ROOT, "config", "published.json")) as f:
        figs = json.load(f)["figures"]
    for k, v in sv.PUBLISHED_IRQ.items():
        name = [n for n, f in figs.items()
                if f.get("chip") == "interrupts." + k]
        assert len(name) == 1, k
        assert figs[name[0]]["value"] == v, k


def test_mbox_native_rows_over_rounds():
    r1 = sv.parse_mbox_output(mbox_line(oneway=1000.0))
    r2 = sv.parse_mbox_output(mbox_line(oneway=2000.0))
    r3 = sv.parse_mbox_output(mbox_line(oneway=3000.0))
    rows = sv.mbox_native_rows([r1, r2, r3])
    assert len(rows) == 1 and rows[0]["n"] == 3
    mhz = r1[0]["core_mhz"]  # the clock the output reports
    assert rows[0]["oneway"]["median"] == pytest.approx(2000.0 / mhz, rel=1e-4)
    assert rows[0]["oneway"]["min"] == pytest.approx(1000.0 / mhz, rel=1e-3)
    text = sv.mbox_native_table(rows, 3)
    assert "3 round(s)" in text and "3.75" in text


def test_mbox_plan():
    assert sv.mbox_plan(False)["sim_cores"][-1] == 47
    assert sv.mbox_plan(True, rounds=4)["native_rounds"] == 4


# ---- notifications (bench/chan/chan_bench) ----------------------------------

def chan_out(backend="sim", core=1, hops=0, ring_rtt=3000.0):
    return """\
# chan_bench: notification cost and throughput of rck_chan
id=info backend=%s core_mhz=533 ue1_core=%d hops=%d reps=200 msgs_small=400 msgs_large=20
id=notify.poll reps=200 rtt_cycles=800.0 oneway_cycles=400.0 send_cycles=150.0 notify_send_cycles=0.0 rx_cycles=90.0 notify_rx_cycles=0.0 rtt_us=1.501 oneway_us=0.750 interrupts=0
id=notify.ring reps=200 rtt_cycles=%.1f oneway_cycles=1500.0 send_cycles=300.0 notify_send_cycles=150.0 rx_cycles=400.0 notify_rx_cycles=310.0 rtt_us=5.629 oneway_us=2.814 interrupts=444
id=notify.tree reps=200 rtt_cycles=2600.0 oneway_cycles=1300.0 send_cycles=320.0 notify_send_cycles=170.0 rx_cycles=350.0 notify_rx_cycles=260.0 rtt_us=4.878 oneway_us=2.439 interrupts=444 extra=1
id=tput.poll.64B bytes=64 msgs=400 cycles_per_msg=500.0 us_per_msg=0.938 mib_s=65.07
id=tput.ring.64KiB bytes=65536 msgs=20 cycles_per_msg=90000.0 us_per_msg=168.9 mib_s=370.1
""" % (backend, core, hops, ring_rtt)


def test_parse_chan_output():
    res = sv.parse_chan_output(chan_out())
    assert res["info"]["backend"] == "sim" and res["info"]["hops"] == 0
    assert [p["kind"] for p in res["notify"]] == ["poll", "ring", "tree"]
    assert res["notify"][1]["notify_rx_cycles"] == 310.0
    assert res["notify"][2]["extra"] == 1  # keys may be added
    assert [(p["kind"], p["size"]) for p in res["tput"]] == [
        ("poll", "64B"), ("ring", "64KiB")]
    assert res["tput"][1]["mib_s"] == 370.1


@pytest.mark.parametrize("text, why", [
    ("id=info backend=sim\n", "no id=notify"),
    ("id=error what=needs_2_UEs\n", "chan_bench failed: needs_2_UEs"),
    ("id=notify.ring reps=1 rtt_cycles=1\n", "missing or non-numeric"),
    ("id=notify.ring reps=1 rtt_cycles=x oneway_cycles=1 send_cycles=1 "
     "notify_send_cycles=1 rx_cycles=1 notify_rx_cycles=1\n",
     r"non-numeric field\(s\) rtt_cycles"),
    ("id=bogus x=1\n", "unknown id"),
    ("id=notify. reps=1\n", "without a kind"),
    ("id=notify.ring cycles\n", "not key=value"),
    ("id=notify.ring reps=1 reps=2\n", "twice"),
])
def test_parse_chan_output_rejects(text, why):
    with pytest.raises(report.BenchParseError, match=why):
        sv.parse_chan_output(text, "src")


def test_chan_rows_best_and_tables():
    runs = [sv.parse_chan_output(chan_out("sim", 47, 8)),
            sv.parse_chan_output(chan_out("sim", 1, 0)),
            sv.parse_chan_output(chan_out("native", 1, 0, 9000.0)),
            sv.parse_chan_output(chan_out("native", 1, 0, 7000.0))]
    nrows, trows = sv.chan_rows(runs)
    assert [(r["backend"], r["hops"], r["kind"]) for r in nrows[:4]] == [
        ("native", 0, "poll"), ("native", 0, "poll"), ("native", 0, "ring"),
        ("native", 0, "ring")]
    assert (nrows[-1]["backend"], nrows[-1]["hops"]) == ("sim", 8)
    best = sv.chan_best(nrows, "rtt_cycles", min)
    ring = [r for r in best if r["backend"] == "native" and
            r["kind"] == "ring"]
    assert len(ring) == 1 and ring[0]["rtt_cycles"] == 7000.0
    assert ring[0]["n"] == 2
    assert [(r["backend"], r["hops"]) for r in best].count(("sim", 8)) == 3
    text = sv.chan_notify_table(best)
    assert "ring" in text and "tree" in text and "310.0" in text
    assert "notify adds" in text
    tb = sv.chan_best(trows, "mib_s", max)
    text = sv.chan_tput_table(tb)
    assert "64KiB" in text and "370.1" in text
    assert sv.chan_notify_table([]).endswith("no results")
    assert sv.chan_tput_table([]).endswith("no results")
    assert sv.chan_plan(True)["sim_cores"]


# ---- plots ------------------------------------------------------------------

def test_plots_write_pngs(tmp_path):
    pytest.importorskip("matplotlib")
    rows = sv.laplace_rows(sample_points())
    p = sv.plot_laplace(rows, str(tmp_path / "l.png"), "note")
    assert os.path.getsize(p) > 1000
    sim = sv.mbox_sim_rows(sv.parse_mbox_output("\n".join(SIM_MBOX)))
    nat = sv.mbox_native_rows([sv.parse_mbox_output(mbox_line())])
    p = sv.plot_mbox(sim, nat, str(tmp_path / "m.png"))
    assert os.path.getsize(p) > 1000
    p = sv.plot_mbox([], [], str(tmp_path / "e.png"))
    assert os.path.exists(p)
    nrows, _ = sv.chan_rows([sv.parse_chan_output(chan_out())])
    p = sv.plot_chan(nrows, str(tmp_path / "n.png"))
    assert os.path.getsize(p) > 1000


# ---- run.py plumbing --------------------------------------------------------

def test_suites_are_registered_and_options_parse():
    assert "svm" in run.SUITES and "mbox" in run.SUITES
    args = run.resolve_args(run.build_parser().parse_args(
        ["--suite", "svm", "--suite", "mbox", "--svm-cores", "1,4",
         "--svm-iters", "3", "--svm-configs", "lazy-mc4,ircce",
         "--mbox-rounds", "2", "--build-dir", "/nonexistent"]))
    assert args.svm_cores == [1, 4] and args.svm_iters == 3
    assert args.svm_configs == ["lazy-mc4", "ircce"]
    with pytest.raises(SystemExit):
        run.resolve_args(run.build_parser().parse_args(
            ["--svm-configs", "eager"]))


def test_chan_program_missing(tmp_path, monkeypatch):
    args = run.resolve_args(run.build_parser().parse_args(
        ["--build-dir", str(tmp_path)]))
    monkeypatch.setattr(run, "SOURCE_DIR", str(tmp_path))
    prog, why = run._chan_program(args)
    assert prog is None and why == "bench/chan missing"
    (tmp_path / "bench" / "chan").mkdir(parents=True)
    prog, why = run._chan_program(args)
    assert prog is None and "not built" in why
    exe = tmp_path / "bench" / "chan" / "x_bench"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    prog, why = run._chan_program(args)
    assert prog == str(exe) and why == ""


def test_suites_report_missing_programs(tmp_path):
    """With nothing built, both suites run to the end and say why."""
    args = run.resolve_args(run.build_parser().parse_args(
        ["--build-dir", str(tmp_path), "--out", str(tmp_path / "out"),
         "--no-mpi", "--suite", "svm", "--suite", "mbox"]))
    impls = {i.name: i for i in (run.make_rockcreek(args),
                                 run.make_openmpi(args), run.make_sim(args))}
    ctx = run.Context(args, impls)
    res = run.suite_svm(ctx)
    assert res.data["rows"] == [] and res.verdicts[0].status == \
        "NOT EVALUATED"
    res = run.suite_mbox(ctx)
    assert res.data["sim"]["rows"] == []
    assert any("not run" in t for t in res.tables)
    # asked for by name: the missing programs are failures, the missing
    # bench/chan is not (another library's benchmark)
    assert ctx.failures and not any("notify" in f for f in ctx.failures)
