"""Tests of the snet suite's pure functions (snetbench), on synthetic
output of bench/snet_bench."""

import pytest

from rockcreek.bench import report
from rockcreek.bench import snetbench

OUT = """\
# snet_bench: per-record cost on one core, us
net=pipeline10 size=8 records=100 us_per_record=1.5 records_per_s=666666.7
net=loop10 size=8 records=100 us_per_record=0.5 records_per_s=2000000.0
net=farm48 size=8 records=100 us_per_record=0.3 records_per_s=3333333.3
net=loop1 size=8 records=100 us_per_record=0.1 records_per_s=10000000.0
"""


def test_parse():
    res = snetbench.parse(OUT, "t")
    assert [r["net"] for r in res] == ["pipeline10", "loop10", "farm48",
                                       "loop1"]
    assert res[0] == {"net": "pipeline10", "size": 8, "records": 100,
                      "us_per_record": 1.5, "records_per_s": 666666.7}


@pytest.mark.parametrize("text", [
    "",
    "# a comment only\n",
    "net=x size=8 records=1\n",
    "net=x size=eight records=1 us_per_record=1 records_per_s=1\n",
])
def test_parse_refuses(text):
    with pytest.raises(report.BenchParseError):
        snetbench.parse(text, "t")


def test_rows_and_table():
    runs = [{"ok": True, "results": snetbench.parse(OUT)},
            {"ok": True, "results": snetbench.parse(
                OUT.replace("us_per_record=1.5", "us_per_record=2.5"))},
            {"ok": False, "results": None}]
    summary = snetbench.summarize(runs)
    assert summary[("pipeline10", 8)]["n"] == 2
    assert summary[("pipeline10", 8)]["median"] == pytest.approx(2.0)
    rows = snetbench.rows_of(summary)
    assert [r["point"] for r in rows] == ["pipeline10 8", "farm48 8"]
    assert rows[0]["ratio_median"] == pytest.approx(4.0)
    assert "overhead 1.5 us" in rows[0]["note"]
    text = snetbench.table(summary)
    assert "pipeline10" in text and "farm48" in text
    assert "star10" not in text
