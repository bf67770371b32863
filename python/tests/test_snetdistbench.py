"""Tests of the distributed snet benchmarks' pure functions
(snetdistbench), on synthetic output of bench/snetdist_*."""

import pytest

from rockcreek.bench import report
from rockcreek.bench import snetdistbench as d

OUT = """\
[ 0] snetdist: bench=pingpong layer=scc ues=2 size=8 records=100 us=30.5
[ 0] <record type="terminate" />
[ 0] snetdist: bench=pingpong layer=mpi ues=2 size=8 records=100 us=45.0
"""


def test_parse():
    res = d.parse(OUT, "t")
    assert res == [
        {"bench": "pingpong", "layer": "scc", "ues": 2, "size": 8,
         "records": 100, "us": 30.5},
        {"bench": "pingpong", "layer": "mpi", "ues": 2, "size": 8,
         "records": 100, "us": 45.0}]


def test_parse_bad_line():
    with pytest.raises(report.BenchParseError):
        d.parse("snetdist: bench=pingpong layer=scc size=x\n", "t")


def test_plan_sim_capped():
    # a timed backend's sizes stay small (the sim's copies are timed line
    # by line)
    for timed in (True, False):
        for quick in (False, True):
            for bench, ues, recs in d.plan(quick, timed):
                assert bench in d.BENCHES
                for r in recs:
                    assert r["ues"] == ues
                    if timed:
                        assert r["size"] <= 1 << 20
    native = dict((b, r) for b, _, r in d.plan(False, False))
    assert max(r["size"] for r in native["pingpong"]) == 256 << 20
    assert [r["size"] for r in native["farm"]] == [5 * 10 ** 6, 10 ** 7]
    assert native["domain"][0]["size"] == 10 ** 7
    assert dict((b, u) for b, u, _ in d.plan(False, True))["pipeline48"] \
        == 48


def test_input_xml():
    x = d.input_xml([{"size": 8, "reps": 2}])
    assert '<tag label="size">8</tag><tag label="reps">2</tag>' in x
    assert x.rstrip().endswith('<record type="terminate"/>')


def test_table_and_rows():
    res = []
    for layer, us in (("nodist", 1.0), ("scc", 30.0), ("mpi", 60.0)):
        res.append({"backend": "sim", "bench": "pingpong", "layer": layer,
                    "size": 8, "us": us})
    s = d.summarize(res)
    t = d.table(s)
    assert "0.50" in t and "scc" in t.splitlines()[-1]
    rows = d.rows_of(s)
    assert len(rows) == 3
    scc = [r for r in rows if r["point"].endswith(" scc")][0]
    assert scc["ratio_median"] == pytest.approx(0.5)


def test_scc_modes():
    assert d.layer_env("scc") == {"RCK_SNET_DIST": "scc",
                                  "RCK_SNET_SCC": "copy"}
    assert d.layer_env("scc-remap")["RCK_SNET_SCC"] == "remap"
    assert d.layer_env("scc-slab")["RCK_SNET_SCC"] == "slab"
    assert d.layer_env("mpi") == {"RCK_SNET_DIST": "mpi"}
    res = []
    for layer, us in (("scc", 30.0), ("scc-remap", 10.0), ("scc-slab", 50.0),
                      ("mpi", 60.0)):
        res.append({"backend": "native", "bench": "pingpong", "layer": layer,
                    "size": 1 << 20, "us": us})
    t = d.table(d.summarize(res))
    last = t.splitlines()[-1]
    assert last.split()[-1] == "scc-remap" and "0.50" in last
    assert len(d.rows_of(d.summarize(res))) == 4


def test_speedup():
    x = d.farm_input(tasks=3, work=5, kinds=2)
    assert x.count('<record type="data">') == 3
    assert '<tag label="p">1</tag><tag label="n">5</tag>' in x
    line = "rck sim: 4 cores, 1 cycles = 0.077146 s of chip time at 800 MHz"
    assert d.parse_chip_seconds(line) == pytest.approx(0.077146)
    assert d.parse_chip_seconds("nothing") is None
    pts = {("sim", 1): 0.27, ("sim", 4): 0.0771}
    t = d.speedup_table(pts)
    assert "3.50" in t.splitlines()[-1]
    rows = d.speedup_rows(pts)
    assert [r["ours_median"] for r in rows] == [1.0, pytest.approx(3.5, 0.01)]


def test_pipes():
    x = d.pipe_input(3, rounds=7)
    assert x.count('<record type="data">') == 3
    assert '<tag label="x">2</tag><tag label="n">7</tag>' in x
    pts = {("pipe8", 1, "on"): 0.2, ("pipe8", 8, "on"): 0.04,
           ("pipe8", 8, "off"): 0.2, ("pipe48", 1, "on"): 2.0,
           ("pipe48", 48, "on"): 0.1}
    lines = d.pipe_table(pts).splitlines()
    p8 = [l for l in lines if "pipe8" in l and " 8 " in l][0]
    assert "5.00" in p8 and "0.200000" in p8
    assert "20.00" in [l for l in lines if " 48 " in l][0]
    assert lines.index([l for l in lines if "pipe8" in l and " 1 " in l][0]) \
        < lines.index([l for l in lines if " 48 " in l][0])
    rows = d.pipe_rows(pts)
    assert len(rows) == 5
    assert {r["point"] for r in rows} >= {"sim pipe8 8 UEs async off"}
