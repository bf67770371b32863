"""rck report's Python side (python/src/rockcreek/report): loading, the HTML page
and the text, from the checked-in runs in tests/report/data."""
import base64
import json
import os
import re

import pytest

from rockcreek.report import load as rload
from rockcreek.report import page, text
from rockcreek.report.__main__ import main

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "tests", "report", "data")
SIM = os.path.join(DATA, "demo8.report.json")
TRACE = os.path.join(DATA, "demo8.trace.json")
NATIVE = os.path.join(DATA, "demo4_native.report.json")


def _imgs(html):
    return re.findall(r'<img class="figure" alt="([^"]*)" '
                      r'src="data:image/png;base64,([^"]+)"', html)


def test_sim_page_has_every_figure_as_png():
    run = rload.load(SIM, TRACE)
    html = page.render(run)
    imgs = _imgs(html)
    assert [a for a, _ in imgs] == [
        "cycles per core", "mesh heatmap", "memory controllers",
        "communication matrix", "energy", "power over time", "DVFS",
        "per-core timeline"]
    for _, b64 in imgs:
        png = base64.b64decode(b64)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    # self-contained: nothing fetched from anywhere
    assert "http://" not in html and "https://" not in html
    assert 'class="absent"' not in html


def test_without_trace_the_timeline_says_how_to_get_one():
    html = page.render(rload.load(SIM))
    assert len(_imgs(html)) == 7
    assert "rck run --trace FILE" in html


def test_native_report_shows_the_matrix_and_says_what_is_absent():
    run = rload.load(NATIVE)
    assert run.backend == "native" and run.cores is None
    html = page.render(run)
    assert [a for a, _ in _imgs(html)] == ["communication matrix"]
    assert html.count('class="absent"') == 7
    assert "native backend: the sim reports it" in html


def test_comm_totals_sum_the_libraries():
    doc = json.load(open(NATIVE))
    total, by_bytes, by_msgs = rload.comm_totals(doc["comm"])
    assert total[0][1] == doc["comm"]["bytes"]["rcce"][0][1]
    assert by_bytes["rcce"] == sum(sum(r) for r in
                                   doc["comm"]["bytes"]["rcce"])
    assert by_msgs["rcce"] == 16 and by_bytes["mpi"] == 0


def test_text_summary():
    out = text.render(rload.load(SIM))
    assert "compute model  p54c" in out
    assert "DVFS changes (10)" in out
    assert "voltage -> 700 mV" in out and "reached at" in out
    assert "MC0:" in out and "heaviest pairs" in out
    # one row per core with the six categories
    rows = [l for l in out.splitlines() if re.match(r"\s+\d+\s+\d+\s+\d+ ",
                                                    l)]
    assert len(rows) == 8


@pytest.mark.parametrize("content, msg", [
    (None, "no such file"),
    ('{"x": 1}', "not a rockcreek report"),
    ('{"x": ', "not JSON (line 1, column 7"),
    ("[1, 2]", "not a rockcreek report"),
])
def test_bad_input(tmp_path, capsys, content, msg):
    p = tmp_path / "r.json"
    if content is not None:
        p.write_text(content)
    assert main([str(p)]) == 2
    assert msg in capsys.readouterr().err


def test_bad_trace(tmp_path, capsys):
    t = tmp_path / "t.json"
    t.write_text('{"traceEvents": 5}')
    assert main([SIM, "--trace", str(t), "--text"]) == 2
    assert "no traceEvents list" in capsys.readouterr().err


def test_main_writes_next_to_the_report(tmp_path):
    dst = tmp_path / "run.json"
    dst.write_text(open(NATIVE).read())
    assert main([str(dst)]) == 0
    assert (tmp_path / "run.html").exists()


def test_without_matplotlib_a_message_and_status_2(tmp_path, capsys,
                                                   monkeypatch):
    """docs/REPORT.md: no traceback when matplotlib is missing (issue 26)."""
    import sys
    import rockcreek.report as rckreport
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    for mod in ("rockcreek.report.page", "rockcreek.report.figures"):
        monkeypatch.delitem(sys.modules, mod, raising=False)
    for attr in ("page", "figures"):
        monkeypatch.delattr(rckreport, attr, raising=False)
    out = tmp_path / "r.html"
    assert main([SIM, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "rck report: the HTML page needs the Python module matplotlib" \
        in err and "Traceback" not in err
    assert not out.exists()
    # the text summary needs no matplotlib
    assert main([SIM, "--text"]) == 0
