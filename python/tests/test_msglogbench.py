"""Tests of the msglog suite's pure functions (msglogbench), on synthetic
data."""

from rockcreek.bench import msglogbench


def _run(config, lat8, lat4k, ok=True):
    return {"config": config, "ok": ok,
            "results": [{"size": 8, "lat_us": lat8},
                        {"size": 64, "lat_us": 99.0},
                        {"size": 4096, "lat_us": lat4k}]}


def test_summary_rows_and_table():
    runs = [_run("off", 0.3, 0.9), _run("off", 0.4, 1.0),
            _run("on", 0.7, 1.3), _run("on", 0.8, 1.4),
            _run("on", 50.0, 50.0, ok=False)]
    s = msglogbench.summarize(runs)
    assert s[("off", 8)]["median"] == 0.35 and s[("on", 8)]["n"] == 2
    assert ("on", 64) not in s
    rows = msglogbench.rows_of(s)
    assert [r["point"] for r in rows] == [8, 4096]
    assert abs(rows[0]["ratio_median"] - 0.75 / 0.35) < 1e-9
    assert rows[1]["ref_median"] == 0.95
    text = msglogbench.table(s)
    assert "log off" in text and "2.14x" in text


def test_missing_configuration():
    s = msglogbench.summarize([_run("on", 0.7, 1.3)])
    rows = msglogbench.rows_of(s)
    assert rows[0]["ref_median"] is None and rows[0]["ratio_median"] is None
    assert "not run" in msglogbench.table(s)
