"""Tests of the benchmark harness's pure functions and plots, on synthetic
data (no benchmark is run)."""

import csv
import json
import os

import pytest

from rockcreek.bench import report
from rockcreek.bench import run

PINGPONG_OUT = """\
# rcce_pingpong ues=2 timer=CLOCK_MONOTONIC version="x"
size=0 reps=20000 lat_us=0.1500 bw_mbs=0.00
size=1 reps=19995 lat_us=0.1600 bw_mbs=6.25

size=1024 reps=15923 lat_us=0.3300 bw_mbs=3103.03
size=65536 reps=1150 lat_us=8.0000 bw_mbs=8192.00
"""


def rounds_of(points, key="size", metric="lat_us"):
    """[{size: value}, ...] -> rounds in the parsed format."""
    return [[{key: k, metric: v} for k, v in r.items()] for r in points]


# ---- parsing ---------------------------------------------------------------

def test_parse_pingpong_output():
    res = report.parse_pingpong_output(PINGPONG_OUT)
    assert [r["size"] for r in res] == [0, 1, 1024, 65536]
    assert res[2] == {"size": 1024, "reps": 15923, "lat_us": 0.33,
                      "bw_mbs": 3103.03}
    assert isinstance(res[0]["size"], int)
    assert isinstance(res[0]["lat_us"], float)


def test_parse_strips_launcher_ue_prefix():
    out = "[ 0] # comment\n[ 0] size=8 reps=1 lat_us=2.5 bw_mbs=3.2\n" \
          "[12] size=16 reps=1 lat_us=2.5 bw_mbs=6.4\n"
    assert [r["size"] for r in report.parse_pingpong_output(out)] == [8, 16]
    with pytest.raises(report.BenchParseError, match="not key=value"):
        report.parse_pingpong_output("[ 1] warning: something\n")


def test_parse_pingpong_sorts_by_size():
    out = "size=8 reps=1 lat_us=1 bw_mbs=8\nsize=2 reps=1 lat_us=1 bw_mbs=2\n"
    assert [r["size"] for r in report.parse_pingpong_output(out)] == [2, 8]


def test_parse_barrier_output():
    out = "# mpi_barrier ranks=48\nues=48 reps=500 us_per_barrier=359.39\n"
    assert report.parse_barrier_output(out) == {
        "ues": 48, "reps": 500, "us_per_barrier": 359.39}


@pytest.mark.parametrize("line, why", [
    ("size=8 reps=10 lat_us=1.0", "missing field"),
    ("size=8 reps=10 lat_us=1.0 bw_mbs=8 extra=1", "unknown field"),
    ("size=8 reps=10 lat_us=abc bw_mbs=8", "not a valid float"),
    ("size=8.5 reps=10 lat_us=1.0 bw_mbs=8", "not a valid int"),
    ("size=8 reps=10 lat_us=nan bw_mbs=8", "not finite"),
    ("size=8 reps=10 lat_us=-1 bw_mbs=8", "negative"),
    ("size=8 size=8 reps=10 lat_us=1 bw_mbs=8", "given twice"),
    ("size 8 reps=10 lat_us=1 bw_mbs=8", "not key=value"),
    ("size= reps=10 lat_us=1 bw_mbs=8", "not key=value"),
    ("Segmentation fault (core dumped)", "not key=value"),
])
def test_malformed_pingpong_line_raises_clear_error(line, why):
    text = "size=1 reps=1 lat_us=1 bw_mbs=1\n" + line + "\n"
    with pytest.raises(report.BenchParseError) as exc:
        report.parse_pingpong_output(text, source="rockcreek pingpong")
    msg = str(exc.value)
    assert why in msg
    assert "rockcreek pingpong" in msg
    assert "line 2" in msg
    assert repr(line.strip()) in msg
    assert exc.value.lineno == 2
    assert exc.value.line == line.strip()


def test_parse_error_is_a_value_error():
    assert issubclass(report.BenchParseError, ValueError)


def test_pingpong_output_without_results_is_an_error():
    with pytest.raises(report.BenchParseError, match="no pingpong result"):
        report.parse_pingpong_output("# only a comment\n\n")


def test_pingpong_repeated_size_is_an_error():
    out = "size=8 reps=1 lat_us=1 bw_mbs=8\nsize=8 reps=1 lat_us=2 bw_mbs=4\n"
    with pytest.raises(report.BenchParseError, match="reported twice"):
        report.parse_pingpong_output(out)


def test_barrier_needs_exactly_one_line():
    with pytest.raises(report.BenchParseError, match="exactly one"):
        report.parse_barrier_output("")
    two = "ues=2 reps=1 us_per_barrier=1\nues=2 reps=1 us_per_barrier=2\n"
    with pytest.raises(report.BenchParseError, match="exactly one"):
        report.parse_barrier_output(two)


def test_barrier_line_with_pingpong_fields_is_an_error():
    with pytest.raises(report.BenchParseError, match="unknown field"):
        report.parse_barrier_output("size=8 reps=1 lat_us=1 bw_mbs=8\n")


# ---- aggregation and ratios ------------------------------------------------

def test_aggregate():
    assert report.aggregate([3.0, 1.0, 2.0]) == {
        "median": 2.0, "min": 1.0, "max": 3.0, "q1": 1.5, "q3": 2.5, "n": 3}
    a = report.aggregate([4.0, 1.0, 2.0, 3.0, 100.0])
    assert a["median"] == 3.0 and a["q1"] == 2.0 and a["q3"] == 4.0
    assert report.aggregate([4.0, 1.0, 2.0, 3.0])["median"] == 2.5
    one = report.aggregate([7.0])
    assert one["q1"] == one["q3"] == one["median"] == 7.0
    with pytest.raises(ValueError):
        report.aggregate([])


def test_aggregate_rounds_tolerates_missing_points():
    rounds = rounds_of([{1: 1.0, 2: 5.0}, {1: 3.0}, {1: 2.0, 2: 7.0}])
    agg = report.aggregate_rounds(rounds, "size", "lat_us")
    assert list(agg) == [1, 2]
    assert (agg[1]["median"], agg[1]["min"], agg[1]["max"], agg[1]["n"]) \
        == (2.0, 1.0, 3.0, 3)
    assert (agg[2]["median"], agg[2]["min"], agg[2]["max"], agg[2]["n"]) \
        == (6.0, 5.0, 7.0, 2)
    assert report.aggregate_rounds([], "size", "lat_us") == {}


def test_ratio():
    assert report.ratio(2.0, 4.0) == 0.5
    assert report.ratio(1.0, 0.0) is None
    assert report.ratio(None, 1.0) is None
    assert report.ratio(1.0, None) is None


def test_ratios_only_for_common_points():
    ours = {1: report.aggregate([2.0]), 2: report.aggregate([3.0])}
    theirs = {1: report.aggregate([4.0]), 4: report.aggregate([1.0])}
    assert report.ratios(ours, theirs) == {1: 0.5}


# ---- verdicts --------------------------------------------------------------

def agg_of(values):
    return {k: report.aggregate(v if isinstance(v, list) else [v])
            for k, v in values.items()}


def test_latency_verdict_met():
    ours = agg_of({0: 0.1, 8: 0.2, 1024: 0.3, 4096: 9.0})
    theirs = agg_of({0: 0.2, 8: 0.2, 1024: 0.4, 4096: 2.0})
    v = report.latency_verdict(ours, theirs, 1024)
    assert v.status == "MET"
    assert "1 KiB" in v.target
    assert [p["size"] for p in v.points] == [0, 8, 1024]  # 4 KiB excluded
    assert "0/3 sizes slower" in v.detail


def test_latency_verdict_not_met_names_worst_size():
    ours = agg_of({8: 0.5, 64: 0.3, 1024: 0.5})
    theirs = agg_of({8: 0.25, 64: 0.3, 1024: 0.4})
    v = report.latency_verdict(ours, theirs, 1024)
    assert v.status == "NOT MET"
    assert "2/3 sizes slower" in v.detail
    assert "worst 8 B" in v.detail
    assert "ratio 2.00" in v.detail
    assert "NOT MET" in str(v)


def test_latency_verdict_with_a_limit():
    # issue 27 asks for 0.8x: equal latency (8 B) and 0.9x (1 KiB) miss it
    ours = agg_of({0: 0.1, 8: 0.2, 1024: 0.36})
    theirs = agg_of({0: 0.2, 8: 0.2, 1024: 0.4})
    assert report.latency_verdict(ours, theirs, 1024).status == "MET"
    v = report.latency_verdict(ours, theirs, 1024, limit=0.8)
    assert v.status == "NOT MET" and "0.8x Open MPI" in v.target
    assert "2/3 sizes beyond the limit" in v.detail


def test_latency_verdict_uses_medians():
    ours = agg_of({8: [0.1, 0.9, 0.2]})     # median 0.2
    theirs = agg_of({8: [0.3, 0.25, 0.1]})  # median 0.25
    assert report.latency_verdict(ours, theirs).status == "MET"


def test_bandwidth_verdict():
    theirs = agg_of({32768: 5000.0, 65536: 8000.0, 1 << 20: 9000.0})
    ok = agg_of({32768: 100.0, 65536: 6400.0, 1 << 20: 9500.0})
    v = report.bandwidth_verdict(ok, theirs, 65536, 0.8)
    assert v.status == "MET"  # 32 KiB is below the range
    assert "80%" in v.target and "64 KiB" in v.target
    low = agg_of({65536: 6300.0, 1 << 20: 9500.0})
    v = report.bandwidth_verdict(low, theirs, 65536, 0.8)
    assert v.status == "NOT MET"
    assert "worst 64 KiB" in v.detail
    assert "1/2 sizes below" in v.detail


def test_verdicts_without_reference_are_not_evaluated():
    ours = agg_of({8: 1.0, 65536: 1.0})
    assert report.latency_verdict(ours, {}).status == "NOT EVALUATED"
    assert report.bandwidth_verdict(ours, {}).status == "NOT EVALUATED"
    assert "no Open MPI results" in report.latency_verdict(ours, {}).detail
    assert report.latency_verdict({}, ours).status == "NOT EVALUATED"
    big = agg_of({1 << 20: 1.0})
    assert report.latency_verdict(big, big).status == "NOT EVALUATED"
    small = agg_of({8: 1.0})
    assert report.bandwidth_verdict(small, small).status == "NOT EVALUATED"


def test_verdict_as_dict_is_json():
    v = report.latency_verdict(agg_of({8: 1.0}), agg_of({8: 2.0}))
    d = json.loads(json.dumps(v.as_dict()))
    assert d["status"] == "MET" and d["points"][0]["ratio"] == 0.5


# ---- formatting ------------------------------------------------------------

@pytest.mark.parametrize("n, text", [
    (0, "0 B"), (1, "1 B"), (512, "512 B"), (1024, "1 KiB"),
    (65536, "64 KiB"), (4 << 20, "4 MiB"), (1536, "1.5 KiB"), (1 << 30, "1 GiB"),
])
def test_format_size(n, text):
    assert report.format_size(n) == text


def test_format_value():
    assert report.format_value(None) == "-"
    assert report.format_value(0.0) == "0"
    assert report.format_value(0.12345) == "0.123"
    assert report.format_value(1.2345) == "1.23"
    assert report.format_value(123.45) == "123.5"
    assert report.format_value(12345.6) == "12346"
    assert report.format_value(7) == "7"


def test_format_table_aligns_columns():
    t = report.format_table(["size", "value\nmedian"],
                            [["1 B", "0.5"], ["64 KiB", "12.25"]])
    lines = t.splitlines()
    assert lines[0].rstrip().endswith("value")
    assert lines[1].rstrip().endswith("median")
    assert set(lines[2].replace(" ", "")) == {"-"}
    assert lines[3].startswith("1 B") and lines[3].endswith("0.5")
    assert lines[4].endswith("12.25")
    assert len(lines[3]) == len(lines[4])  # right-aligned numbers
    with pytest.raises(ValueError):
        report.format_table(["a", "b"], [["only one"]])


def test_comparison_table_contents():
    ours = agg_of({8: [1.0, 2.0, 3.0], 1024: [4.0]})
    theirs = agg_of({8: [0.5, 1.0, 1.5], 2048: [1.0]})
    t = report.comparison_table("latency", ours, theirs, "us", True)
    assert t.splitlines()[0].startswith("latency [us; lower is better")
    assert "rockcreek" in t and "Open MPI" in t
    assert "ratio = rockcreek / Open MPI" in t
    row8 = [ln for ln in t.splitlines() if ln.startswith("8 B")][0].split()
    # size(2 tokens) ours med/min/max, theirs med/min/max, ratios
    assert row8[2:] == ["2.00", "1.00", "3.00", "1.00", "0.500", "1.50",
                        "2.00", "2.00"]
    row1k = [ln for ln in t.splitlines() if ln.startswith("1 KiB")][0]
    assert row1k.split()[-1] == "-"  # no reference for 1 KiB
    tb = report.comparison_table("bw", ours, theirs, "MB/s", False)
    assert "higher is better" in tb
    assert tb.splitlines()[2].split()[-1] == "max"  # best round is the max
    assert t.splitlines()[2].split()[-1] == "min"


def test_comparison_table_without_reference():
    t = report.comparison_table("x", agg_of({8: 1.0}), {}, "us", True)
    assert "8 B" in t and "-" in t


def test_parse_cpuinfo_model():
    text = "processor\t: 0\nvendor_id\t: AuthenticAMD\n" \
           "model name\t: AMD EPYC 7B13 64-Core Processor\nflags\t: fpu\n"
    assert report.parse_cpuinfo_model(text) == \
        "AMD EPYC 7B13 64-Core Processor"
    assert report.parse_cpuinfo_model("") is None


# ---- driver helpers (no processes) -----------------------------------------

def test_size_argument_parsing():
    assert run.parse_size_arg("4096") == 4096
    assert run.parse_size_arg("64K") == 65536
    assert run.parse_size_arg("4MiB") == 4 << 20
    with pytest.raises(Exception):
        run.parse_size_arg("lots")


def test_quick_defaults():
    a = run.resolve_args(run.build_parser().parse_args(
        ["--quick", "--build-dir", "/nonexistent"]))
    assert a.rounds == 3 and a.max_size == 64 << 10
    a = run.resolve_args(run.build_parser().parse_args(
        ["--build-dir", "/nonexistent"]))
    assert a.rounds == 10 and a.max_size == 4 << 20
    assert a.out == "/nonexistent/bench-results"


def test_interleaving_alternates_order():
    class A:
        rounds = 4
    ctx = run.Context(A(), {})
    assert ctx.order(1, ["r", "m"]) == ["r", "m"]
    assert ctx.order(2, ["r", "m"]) == ["m", "r"]
    assert ctx.order(3, ["r", "m"]) == ["r", "m"]


def test_suites_registry():
    assert list(run.SUITES) == ["pingpong", "barrier", "ircce",
                                "collectives", "sim-calibration",
                                "sim-speed", "svm", "mbox",
                                "native-load", "msglog", "mpi-backend", "power",
                                "mpi", "p54c", "snet", "ip", "python"]
    assert all(callable(f) for f in run.SUITES.values())


def test_power_kernel_energy():
    from rockcreek.bench import powerbench
    # samples are the mean power of (previous t, t]
    doc = {"power": {"series": {"t_s": [1.0, 2.0, 2.5],
                                "chip_w": [10.0, 20.0, 40.0]}}}
    assert abs(powerbench.kernel_energy(doc, 0.0, 2.5) - 50.0) < 1e-12
    assert abs(powerbench.kernel_energy(doc, 0.5, 2.25) - 35.0) < 1e-12
    assert powerbench.kernel_energy(doc, 3.0, 4.0) == 0.0
    m = powerbench.LINE.search("[ 0] kernel=mm n=32 fdiv=4 ues=48 "
                               "t0_s=0.5 t1_s=0.75 flops=3145728 check=1")
    assert m.group(1) == "mm" and float(m.group(6)) == 0.75


def test_p54c_lines_and_plot(tmp_path):
    from rockcreek.bench import p54cbench
    m = p54cbench.LINE.search("[ 0] p54c_bench: kernel=l2_hit_read "
                              "bytes=131072 seconds=0.0007 mib_s=175.0")
    assert m.group(1) == "l2_hit_read" and "mib_s=175.0" in m.group(2)
    s = p54cbench.SUMMARY.search("rck sim: 48 cores, 100 cycles = 0.5 s of "
                                 "chip time at 533 MHz, in 2.5 s of host "
                                 "time (x)")
    assert float(s.group(1)) == 0.5 and float(s.group(3)) == 2.5
    assert p54cbench.plan(True)["sweep_kb"][-1] == 1024
    data = {"plan": p54cbench.plan(True),
            "sweep": [{"kb": 4, "cycles_per_line": 50.0},
                      {"kb": 512, "cycles_per_line": 850.0}],
            "bandwidth": [{"kernel": "l2_hit_read", "ours_mib_s": 175.0,
                           "published_mib_s": 285.0, "ratio": 0.61}],
            "weak": {"host": {"1": {"mean_s": 1.0, "max_s": 1.0},
                              "48": {"mean_s": 1.1, "max_s": 1.4}},
                     "p54c-fast": {"1": {"mean_s": 2.0, "max_s": 2.0},
                                   "48": {"mean_s": 2.0, "max_s": 2.0}}}}
    assert p54cbench.plan(True)["weak"]["ues"][0] == 1
    k = p54cbench.KERN.search("[ 0] p54c_kern: kernel=lu n=12 iters=20 "
                              "chip_s=0.895736117 host_s=0.137058 "
                              "checksum=7.1273810943e-16")
    assert k.group(1) == "lu" and float(k.group(5)) == 0.137058
    assert k.group(6) == "7.1273810943e-16"
    assert [x[0] for x in p54cbench.plan(True)["one_ue"]["kernels"]] == \
        ["lu", "stencil"]
    pytest.importorskip("matplotlib")
    path = tmp_path / "p54c.png"
    p54cbench.plot_p54c(data, str(path))
    assert path.stat().st_size > 1000


def test_csv_rows_and_file(tmp_path):
    ours = agg_of({8: [1.0, 2.0]})
    theirs = agg_of({8: [4.0], 16: [5.0]})
    rows = run.csv_rows_for("pingpong", "lat_us", "us", True, "rockcreek",
                            ours, "openmpi", theirs)
    assert rows[0]["ratio_median"] == 1.5 / 4.0
    assert rows[1]["ours_median"] is None
    path = tmp_path / "r.csv"
    run.write_csv(str(path), rows)
    with open(path) as f:
        back = list(csv.DictReader(f))
    assert back[0]["point"] == "8" and back[1]["ours_median"] == ""
    assert list(back[0]) == run.CSV_FIELDS


# ---- plots -----------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == PNG_MAGIC and os.path.getsize(path) > 1000


def test_plots_write_png_files(tmp_path):
    plots = pytest.importorskip("rockcreek.bench.plots")
    import matplotlib
    assert matplotlib.get_backend().lower() == "agg"
    sizes = [0, 1, 2, 1024, 65536, 4 << 20]
    ours = agg_of({s: [1.0 + s / 1e3, 2.0 + s / 1e3] for s in sizes})
    theirs = agg_of({s: [0.5 + s / 2e3] for s in sizes})
    series = {"rockcreek": ours, "Open MPI": theirs}
    lat = plots.plot_latency(series, str(tmp_path / "latency.png"), "note")
    bw = plots.plot_bandwidth(series, str(tmp_path / "bandwidth.png"))
    bar = plots.plot_bars({"rockcreek": report.aggregate([10.0, 12.0]),
                           "Open MPI": report.aggregate([300.0, 360.0])},
                          str(tmp_path / "barrier.png"), "barrier", "us")
    for p in (lat, bw, bar):
        assert is_png(p), p


def test_plots_without_data_still_write_png(tmp_path):
    plots = pytest.importorskip("rockcreek.bench.plots")
    p = plots.plot_latency({}, str(tmp_path / "empty.png"))
    q = plots.plot_bars({"rockcreek": None}, str(tmp_path / "bars.png"),
                        "barrier", "us")
    assert is_png(p) and is_png(q)


def test_p54c_compiled_verdicts():
    from rockcreek.bench import p54cbench
    by = {"p54c/compiled": {"chip_s": 0.10, "host_s": 3.0,
                            "host_per_chip": 30.0},
          "p54c/qemu, checked": {"chip_s": 0.104, "host_s": 16.0,
                                 "host_per_chip": 150.0},
          "p54c-fast/compiled": {"chip_s": 0.02, "host_s": 0.5,
                                 "host_per_chip": 25.0}}
    v = p54cbench._compiled_verdicts(by, "stencil")
    agree = [x for x in v if "within 5%" in x[0]][0]
    speed = [x for x in v if "within 3x" in x[0]][0]
    assert agree[1] is True          # 0.10 against 0.104: 3.8%
    assert speed[1] is False         # 3.0 s against 0.5 s: 6x
    by["p54c/compiled"]["chip_s"] = 0.08
    assert p54cbench._compiled_verdicts(by, "stencil")[0][1] is False
    assert p54cbench._compiled_verdicts({}, "stencil") == []
    # the write-combine buffer's wait is charged inside the stream on both
    # engines since 2026-11-28 (P54C_TX_WCB): no longer excluded
    assert "mpbt_write" not in p54cbench.ENGINES_EXCLUDED
    assert "l2_hit_read_string" in p54cbench.ENGINES_EXCLUDED
