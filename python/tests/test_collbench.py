"""Tests of the ircce and collectives suites' pure functions (collbench)
and their plots, on synthetic data."""

import pytest

from rockcreek import published
from rockcreek.bench import collbench
from rockcreek.bench import report
from rockcreek.bench import run

COLL_OUT = """\
# coll_bench ues=4 timer=CLOCK_MONOTONIC version="x"
coll=bcast ues=4 size=64 reps=200 us_per_call=13.0
coll=comm_bcast ues=4 size=64 reps=200 us_per_call=10.0
coll=alltoall ues=4 size=65536 reps=53 us_per_call=160.0
"""

MHZ = published.chip_core_mhz()


def test_parse_coll_output():
    res = collbench.parse_coll_output(COLL_OUT, "t")
    assert [r["coll"] for r in res] == ["bcast", "comm_bcast", "alltoall"]
    assert res[2] == {"coll": "alltoall", "ues": 4, "size": 65536,
                      "reps": 53, "us_per_call": 160.0}


@pytest.mark.parametrize("text", [
    "",
    "# only a comment\n",
    "ues=4 size=64 reps=1 us_per_call=1.0\n",
    "coll=bcast ues=4 size=64 reps=1\n",
    "coll=bcast ues=4 size=64 reps=1 us_per_call=x\n",
    "coll=bcast ues=4 size=64 reps=1 us_per_call=1 extra=2\n",
    "coll=bcast ues=4 size=64 reps=1 us_per_call=1\n"
    "coll=bcast ues=4 size=64 reps=1 us_per_call=2\n",
])
def test_parse_coll_output_rejects(text):
    with pytest.raises(report.BenchParseError):
        collbench.parse_coll_output(text, "t")


def test_mpi_equivalent_and_names():
    assert collbench.mpi_equivalent("comm_allreduce") == "allreduce"
    assert collbench.mpi_equivalent("alltoall") == "alltoall"
    assert collbench.mpi_name("reduce_scatter") == "MPI_Reduce_scatter_block"
    assert collbench.mpi_name("bcast") == "MPI_Bcast"


def pt(coll, ues, size, us, reps=10):
    return {"coll": coll, "ues": ues, "size": size, "reps": reps,
            "us_per_call": us}


def test_aggregate_coll_and_rows():
    ours = collbench.aggregate_coll([
        [pt("comm_bcast", 4, 64, 10.0), pt("bcast", 4, 64, 20.0)],
        [pt("comm_bcast", 4, 64, 30.0), pt("bcast", 4, 64, 40.0)],
        [pt("comm_bcast", 4, 64, 20.0)]])
    # ordered as coll_bench runs them: bcast before comm_bcast
    assert list(ours) == ["bcast/4/64", "comm_bcast/4/64"]
    assert ours["comm_bcast/4/64"]["median"] == 20.0
    assert ours["comm_bcast/4/64"]["min"] == 10.0
    assert ours["bcast/4/64"]["n"] == 2
    ref = collbench.aggregate_coll([[pt("bcast", 4, 64, 5.0)],
                                    [pt("bcast", 4, 64, 15.0)]])
    rows = collbench.coll_rows(ours, ref)
    by = {r["key"]: r for r in rows}
    assert by["bcast/4/64"]["ratio_median"] == pytest.approx(30.0 / 10.0)
    assert by["comm_bcast/4/64"]["mpi_coll"] == "bcast"
    assert by["comm_bcast/4/64"]["ratio_median"] == pytest.approx(2.0)
    assert by["comm_bcast/4/64"]["ratio_min"] == pytest.approx(2.0)
    # no reference: no ratio
    rows = collbench.coll_rows(ours, {})
    assert all(r["ratio_median"] is None for r in rows)
    text = collbench.coll_table(collbench.coll_rows(ours, ref), "T")
    assert text.startswith("T\n") and "MPI_Bcast" in text


def test_us_to_cycles():
    # the default chip's clock, from its chip file
    assert collbench.us_to_cycles(1.0) == pytest.approx(MHZ)
    assert collbench.us_to_cycles(2.0, mhz=800) == pytest.approx(1600.0)
    assert collbench.us_to_cycles(None) is None


def test_sim_coll_rows_ratio_vs_rcce():
    rows = collbench.sim_coll_rows([
        pt("comm_allreduce", 8, 64, 1.0), pt("allreduce", 8, 64, 4.0),
        pt("alltoall", 8, 64, 2.0)])
    assert [r["coll"] for r in rows] == ["allreduce", "comm_allreduce",
                                         "alltoall"]
    assert rows[0]["cycles"] == pytest.approx(4 * MHZ)
    assert rows[1]["ratio_vs_rcce"] == pytest.approx(0.25)
    assert rows[0]["ratio_vs_rcce"] is None
    assert "cycles per call" in collbench.sim_coll_table(rows, "S")


def agg(*v):
    return report.aggregate(v)


def test_ircce_rows_ratios_latency_and_bandwidth():
    lat = {"rcce": {8: agg(1.0, 2.0, 3.0)},
           "isend": {8: agg(2.0, 4.0, 6.0)},
           "ssend": {8: agg(1.5, 3.0)}}
    rows = collbench.ircce_rows(lat, "lat_us", True)
    assert len(rows) == 1
    assert rows[0]["ratio_isend"] == pytest.approx(2.0)
    assert rows[0]["best_isend"] == pytest.approx(2.0)   # min 2 / min 1
    assert rows[0]["ratio_ssend"] == pytest.approx(2.25 / 2.0)
    bw = {"rcce": {8: agg(10.0, 20.0)}, "isend": {8: agg(5.0, 30.0)}}
    rows = collbench.ircce_rows(bw, "bw_mbs", False)
    assert rows[0]["best_isend"] == pytest.approx(30.0 / 20.0)  # max/max
    assert rows[0]["ratio_ssend"] is None   # no ssend data
    text = collbench.ircce_table(rows, "B", "MB/s")
    assert "isend /" in text and text.startswith("B [MB/s]")


def test_ircce_rows_missing_baseline_and_empty():
    rows = collbench.ircce_rows({"isend": {64: agg(1.0)}}, "lat_us")
    assert rows[0]["ratio_isend"] is None
    assert collbench.ircce_rows({}, "lat_us") == []


def test_sim_pingpong_cycles_and_single():
    res = [{"size": 8, "reps": 10, "lat_us": 0.5, "bw_mbs": 16.0}]
    c = collbench.sim_pingpong_cycles(res)
    assert c[8]["lat_cycles"] == pytest.approx(266.5)
    s = collbench.single(3.0)
    assert s["median"] == s["min"] == s["max"] == 3.0 and s["n"] == 1
    assert collbench.single(None) is None


def test_suites_registered_and_defaults():
    assert "ircce" in run.SUITES and "collectives" in run.SUITES
    a = run.resolve_args(run.build_parser().parse_args(["--quick"]))
    assert a.coll_ues == [2, 8, 48] and a.coll_rounds == 1
    a = run.resolve_args(run.build_parser().parse_args(
        ["--coll-ues", "2,4", "--coll-sizes", "64,1K"]))
    assert a.coll_ues == [2, 4] and a.coll_sizes == [64, 1024]
    assert a.ircce_rounds == 5
    with pytest.raises(SystemExit):
        run.resolve_args(run.build_parser().parse_args(
            ["--coll-sizes", "12"]))


def test_plots(tmp_path):
    plots = pytest.importorskip("rockcreek.bench.plots")
    lat = {"RCCE": {8: agg(1.0, 2.0), 64: agg(2.0)},
           "iRCCE": {8: agg(1.5), 64: agg(2.5)}}
    p = plots.plot_ircce(lat, lat, {"RCCE": {8: 200.0, 64: 270.0}},
                         str(tmp_path / "i.png"), "note")
    assert (tmp_path / "i.png").stat().st_size > 1000
    ours = collbench.aggregate_coll([[pt("bcast", 2, 64, 1.0),
                                      pt("bcast", 4, 64, 3.0)]])
    ref = collbench.aggregate_coll([[pt("bcast", 2, 64, 0.5)]])
    rows = collbench.coll_rows(ours, ref)
    sim_rows = collbench.sim_coll_rows([pt("bcast", 2, 64, 1.0),
                                        pt("bcast", 4, 64, 2.0)])
    p = plots.plot_collectives(rows, sim_rows, str(tmp_path / "c.png"))
    assert p.endswith("c.png") and (tmp_path / "c.png").stat().st_size > 1000
    # nothing at all still writes a picture
    plots.plot_collectives([], [], str(tmp_path / "e.png"))
    assert (tmp_path / "e.png").exists()
