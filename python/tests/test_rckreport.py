"""rck report's Python side (python/src/rockcreek/report): loading, the HTML page
and the text, from the checked-in runs in tests/report/data."""
import base64
import json
import os
import re

import pytest

from rockcreek.report import load as rload
from rockcreek.report import text
from rockcreek.report.__main__ import main

# the HTML page and its figures need matplotlib (the package's `plots`
# extra); without it their tests are skipped, the rest run
try:
    from rockcreek.report import figures, page
except ImportError:
    figures = page = None
needs_mpl = pytest.mark.skipif(page is None, reason="matplotlib is not installed "
                               "(pip install './python[plots]')")

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "tests", "report", "data")
SIM = os.path.join(DATA, "demo8.report.json")
TRACE = os.path.join(DATA, "demo8.trace.json")
NATIVE = os.path.join(DATA, "demo4_native.report.json")


def _imgs(html):
    return re.findall(r'<img class="figure" alt="([^"]*)" '
                      r'src="data:image/png;base64,([^"]+)"', html)


@needs_mpl
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


@needs_mpl
def test_without_trace_the_timeline_says_how_to_get_one():
    html = page.render(rload.load(SIM))
    assert len(_imgs(html)) == 7
    assert "rck run --trace FILE" in html


@needs_mpl
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


@needs_mpl
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


# --- issue 26, item 7: the page's defects and the deadlock details -------


def _doc(path=SIM):
    with open(path) as f:
        return json.load(f)


def _run(doc, path="x.json", trace=None):
    r = rload.Run(doc, path)
    r.trace = trace
    return r


@needs_mpl
def test_panels_without_data_say_so_in_one_line():
    doc = _doc()
    for m in doc["memory_controllers"]:
        m["accesses"] = m["queue_cycles"] = 0
    for c in doc["cores"]:
        c.pop("p54c", None)
    for lib in doc["comm"]["bytes"].values():
        for row in lib:
            row[:] = [0] * len(row)
    for l in doc["mesh_links"]:
        l["bytes"] = l["packets"] = 0
    run = _run(doc)
    assert figures.memory_controllers(run) is None
    assert figures.comm_matrix(run) is None
    assert figures.mesh_heatmap(run) is None
    html = page.render(run)
    alts = [a for a, _ in _imgs(html)]
    assert "memory controllers" not in alts and "mesh heatmap" not in alts
    assert "communication matrix" not in alts
    assert "no DRAM traffic in this run" in html
    assert "no mesh traffic in this run" in html
    assert "no messages between UEs in this run" in html


@pytest.mark.parametrize("rcce, mpi, unit", [
    (150000, 0, "KiB"),  # overlapped before: 0, 20000, ..., 180000
    (123456789012, 98765432101, "GiB")])
@needs_mpl
def test_by_library_tick_labels_do_not_overlap(rcce, mpi, unit):
    doc = _doc(NATIVE)
    doc["comm"]["bytes"]["rcce"][0][1] = rcce
    doc["comm"]["bytes"]["mpi"][1][2] = mpi
    fig = figures.comm_matrix(_run(doc))
    fig.set_dpi(96)  # as the page draws it
    ax2 = [a for a in fig.axes if a.get_title() == "By library"][0]
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer=r) for t in ax2.get_xticklabels()
             if t.get_visible() and t.get_text()]
    assert len(boxes) >= 3
    assert not any(boxes[i].overlaps(boxes[j]) for i in range(len(boxes))
                   for j in range(i + 1, len(boxes)))
    assert any(unit in t.get_text() for t in ax2.get_xticklabels())


@needs_mpl
def test_power_of_many_samples_is_an_envelope_with_a_caption():
    doc = _doc()
    n = 20000
    doc["power"]["series"] = {
        "period_s": 1e-4, "t_s": [i * 1e-4 for i in range(n)],
        "chip_w": [30 + (5 if i % 2 else -5) for i in range(n)],
        "island_w": [[1.0, 2.0] for _ in range(n)]}
    doc["simulated_seconds"] = n * 1e-4
    fig = figures.power_series(_run(doc))
    assert fig.rck_samples_per_point == -(-n // figures.POWER_BUCKETS)
    ax = fig.axes[0]
    mean = [l for l in ax.get_lines() if l.get_label().endswith(": mean")]
    assert len(mean) == 1
    # drawn as steps: at most two points per bucket, and the mean is 30
    assert len(mean[0].get_xdata()) <= 2 * figures.POWER_BUCKETS + 2
    assert abs(max(mean[0].get_ydata()) - 30) < 0.01
    assert "20000 samples of 100 us, each point the mean of 34" in \
        ax.get_title()
    assert "min to max" in ax.get_title()
    assert figures.downsample([0, 1, 2, 3, 4], [1, 5, 2, 2, 9], 2) == \
        ([0, 3], [1, 2], [8 / 3, 5.5], [5, 9], 3)


@needs_mpl
def test_mesh_shows_directions_and_outlines_outside_the_colour_map():
    run = rload.load(SIM)
    fig = figures.mesh_heatmap(run)
    ax = fig.axes[0]
    marks = [l for l in ax.get_lines() if l.get_gid() == "mesh-direction"]
    assert len(marks) == len(run.links)
    # opposite links between two routers point opposite ways
    assert {l.get_marker() for l in marks} == {">", "<", "^", "v"}
    from matplotlib import colors
    outline = colors.to_rgb(figures.MESH_OUTLINE)
    cmap = figures.plt.get_cmap(figures.MESH_CMAP)
    nearest = min(sum((a - b) ** 2 for a, b in zip(outline, cmap(i / 255)[:3]))
                  ** 0.5 for i in range(256))
    assert nearest > 0.3
    edges = {colors.to_hex(p.get_edgecolor()) for p in ax.patches}
    assert edges == {figures.MESH_OUTLINE}


@needs_mpl
def test_comm_colour_bar_starts_at_zero():
    fig = figures.comm_matrix(rload.load(NATIVE))
    cbar = [a for a in fig.axes if "bytes (0, then log)" in a.get_ylabel()]
    assert len(cbar) == 1
    assert cbar[0].get_ylim()[0] == 0


@pytest.mark.parametrize("n, want", [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
    (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"),
    (101, "101st"), (111, "111th"), (112, "112th"), (1002, "1002nd")])
def test_ordinals(n, want):
    assert text.ordinal(n) == want


@needs_mpl
def test_timeline_title_uses_ordinals():
    run = rload.load(SIM, TRACE)
    total = sum(len(v) for v in run.trace["lanes"].values())
    fig = figures.timeline(run, max_events=total // 2)
    assert ("every 2nd event of %d" % total) in fig.axes[0].get_title()


def _time_labels(run):
    labels = []
    for f in (figures.power_series(run), figures.dvfs_steps(run),
              figures.timeline(run)):
        if f is not None:
            labels += [a.get_xlabel() for a in f.axes
                       if "time" in a.get_xlabel()]
    return labels


@needs_mpl
def test_one_time_unit_for_the_page():
    labels = _time_labels(rload.load(SIM, TRACE))
    assert len(labels) == 3 and set(labels) == {"chip time (ms)"}
    # a shorter run: microseconds everywhere
    doc = _doc()
    doc["simulated_seconds"] = 5e-4
    labels = _time_labels(_run(doc, trace=rload.load_trace(TRACE)))
    assert set(labels) == {"chip time (us)"}
    assert text.time_unit(2.0) == ("s", 1.0)


@needs_mpl
def test_menu_lists_only_the_sections_the_page_has():
    for run in (rload.load(NATIVE), rload.load(SIM)):
        html = page.render(run)
        nav = re.search(r"<nav>(.*?)</nav>", html).group(1)
        hrefs = re.findall(r'href="#([^"]+)"', nav)
        ids = re.findall(r'<section id="([^"]+)"', html)
        assert hrefs == ids
        for a in hrefs:
            body = re.search(r'<section id="%s"[^>]*>(.*?)</section>' % a,
                             html, re.S).group(1)
            assert a == "absent" or 'class="absent"' not in body
    html = page.render(rload.load(NATIVE))
    assert 'href="#mesh"' not in html and 'href="#comm"' in html


DEADLOCK = {
    "rockcreek_sim_report": 1, "chip": "scc", "core_mhz": 533, "nues": 2,
    "ended": "deadlock", "simulated_cycles": 53300,
    "simulated_seconds": 0.0001,
    "cores": [{"ue": 0, "core": 0, "end": "deadlock", "cycles": 53300},
              {"ue": 1, "core": 1, "end": "deadlock", "cycles": 53000}],
    "deadlock": {"cycle": 53300, "waits": [
        {"ue": 0, "core": 0, "call": "RCCE_send", "peer": 1,
         "since_cycle": 1066, "words": [
             {"space": "mpb", "core": 0, "offset": 64, "mask": 255,
              "op": "==", "value": 1, "now": 0}], "interrupt": False},
        {"ue": 1, "core": 1, "call": "RCCE_send", "peer": 0,
         "since_cycle": 2132, "words": [], "interrupt": True}]}}


@needs_mpl
def test_deadlock_on_the_page_and_in_the_text():
    run = _run(json.loads(json.dumps(DEADLOCK)))
    html = page.render(run)
    # the first section, before the summary table
    assert html.index('<section id="ending"') < html.index("<table>")
    sec = re.search(r'<section id="ending".*?</section>', html, re.S).group(0)
    assert "The run deadlocked" in sec
    assert "<td>RCCE_send</td><td>1</td><td>cycle 1066 (2 us)</td>" in sec
    assert "<td>RCCE_send</td><td>0</td><td>cycle 2132 (4 us)</td>" in sec
    assert "MPB of core 0 offset 64: waits until (word &amp; 0xff) == 1, " \
        "is 0" in sec and "an interrupt" in sec
    out = text.render(run)
    assert out.startswith("THE RUN DEADLOCKED\n")
    assert "UE 0 (core 0) in RCCE_send, peer 1, waiting since cycle 1066 " \
        "(2 us)" in out
    assert "UE 1 (core 1) in RCCE_send, peer 0, waiting since cycle 2132" \
        in out


@needs_mpl
def test_peer_died_on_the_page_and_in_the_text():
    doc = json.loads(json.dumps(DEADLOCK))
    doc["ended"] = "peer_died"
    del doc["deadlock"]
    doc["cores"][0]["end"] = "failed"
    doc["cores"][1]["end"] = "aborted"
    run = _run(doc)
    out = text.render(run)
    assert "A CORE DIED" in out
    assert "UE 0 (core 0) failed at cycle 53300" in out
    assert "UE 1 (core 1) aborted at cycle 53000" in out
    html = page.render(run)
    assert '<section id="ending" class="ending"><h2>A core died' in html
    # a normal run has no such section
    assert 'id="ending"' not in page.render(rload.load(SIM))
    assert text.ending(rload.load(NATIVE)) is None


def test_a_failed_core_in_a_run_that_ended_ok():
    doc = _doc()
    doc["cores"][3]["end"] = "failed"
    out = text.render(_run(doc))
    assert out.startswith("NOT EVERY CORE EXITED NORMALLY\n")
    assert "UE 3 (core %d) failed at cycle" % doc["cores"][3]["core"] in out
