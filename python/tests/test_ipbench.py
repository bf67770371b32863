"""Tests of the ip suite's pure functions (ipbench) on synthetic output."""

import pytest

from rockcreek.bench import ipbench, report

OUT = """ip_bench test=rcce_lat size=1 value=3.5 n=100 lost=0
ip_bench test=stream_lat size=1 value=17 n=100 lost=0
ip_bench test=stream_tput size=1 value=0.2 n=20000 lost=0
ip_bench test=udp_tput size=1 value=0.5 n=20000 lost=2
"""


def test_parse():
    r = ipbench.parse("noise\n" + OUT)
    assert [x["test"] for x in r] == ["rcce_lat", "stream_lat",
                                      "stream_tput", "udp_tput"]
    assert r[3]["lost"] == 2 and r[0]["value"] == 3.5


def test_parse_errors():
    with pytest.raises(report.BenchParseError):
        ipbench.parse("nothing here\n")
    with pytest.raises(report.BenchParseError):
        ipbench.parse("ip_bench test=stream_lat size=x value=1 n=1 lost=0\n")
    with pytest.raises(report.BenchParseError):
        ipbench.parse("ip_bench test=bogus size=1 value=1 n=1 lost=0\n")


def test_summary_rows_table():
    runs = [{"ok": True, "mode": "lwip", "backend": "sim",
             "results": ipbench.parse(OUT)},
            {"ok": False, "mode": "lwip", "backend": "sim"}]
    s, lost = ipbench.summarize(runs)
    assert lost == 2
    assert s[("lwip", "sim", "stream_lat", 1)]["median"] == 17
    rows = {r["metric"]: r for r in ipbench.rows_of(s)}
    assert rows["stream_lat"]["ratio_median"] == pytest.approx(17 / 3.5)
    assert rows["stream_tput"]["lower_is_better"] == 0
    assert rows["stream_tput"]["ref"] == ""
    t = ipbench.table(s, "sim")
    assert "ip on sim" in t and "17" in t
