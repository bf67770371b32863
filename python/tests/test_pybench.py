"""The python suite's pure functions (python/src/rockcreek/bench/pybench.py)."""

import sys

import pytest

from rockcreek.bench import mpi4pyenv, pybench, report


def test_parse_rckmpi_pingpong():
    out = pybench.parse_rckmpi_pingpong(
        "[ 0] op=pingpong ues=2 size=1 reps=2000 us=4.3615\n"
        "[ 0] op=pingpong ues=2 size=1024 reps=2000 us=9.1364\n")
    assert [(r["size"], r["lat_us"]) for r in out] == [(1, 4.3615), (1024, 9.1364)]
    with pytest.raises(report.BenchParseError):
        pybench.parse_rckmpi_pingpong("nothing here\n", source="x")


def test_overhead_table():
    med = {"c": {1: 3.0, 1024: 6.0}, "py": {1: 30.0, 1024: 26.0},
           "cmpi": {1: 5.0}, "mpi4py": {1: 13.0}}
    labels = {k: v[0] for k, v in pybench.CONFIGS.items()}
    t = pybench.overhead_table("sim", med, labels, timed=True)
    lines = t.splitlines()
    row1 = [ln for ln in lines if ln.startswith("1 B")][0].split()
    # size, C, P, CM, M, py-C, mpi4py-C rckmpi, ratio vs rckmpi
    assert row1[-3:] == ["27.00", "8.00", "3.38x"]
    row2 = [ln for ln in lines if ln.startswith("1 KiB")][0]
    assert row2.rstrip().endswith("-")   # no mpi4py point: no ratio
    assert "Open MPI" not in t


def test_overheads_against_open_mpi():
    med = {"c": {1: 2.0}, "py": {1: 12.0}, "cmpi": {1: 3.0}, "mpi4py": {1: 8.0},
           "compi": {1: 0.5}, "mpi4pyompi": {1: 4.5}}
    o = pybench.overheads(med)[1]
    assert o["py"] == 10.0 and o["mpi4py"] == 5.0 and o["mpi4pyompi"] == 4.0
    assert o["ratio_ompi"] == 2.5 and o["ratio_rckmpi"] == 2.0
    labels = {k: v[0] for k, v in pybench.CONFIGS.items()}
    t = pybench.overhead_table("native", med, labels)
    row = [ln for ln in t.splitlines() if ln.startswith("1 B")][0].split()
    assert row[-5:] == ["10.00", "5.00", "4.00", "2.50x", "2.00x"]
    assert "ratio vs" in t and "host us" in t
    # no Python overhead without its C: no ratio either
    o = pybench.overheads({"py": {1: 12.0}, "compi": {1: 0.5}, "mpi4pyompi": {1: 4.5}})[1]
    assert o["py"] is None and o["ratio_ompi"] is None
    # a negative overhead (noise: C slower than Python) gives no ratio
    o = pybench.overheads({"c": {1: 5.0}, "py": {1: 4.0}, "compi": {1: 1.0},
                           "mpi4pyompi": {1: 2.0}})[1]
    assert o["py"] == -1.0 and o["ratio_ompi"] is None


def test_bandwidth_and_noise_tables():
    agg = {"c": {1: report.aggregate([2.0, 4.0, 3.0]), 1000: report.aggregate([10.0])}}
    med = {"c": {1: 3.0, 1000: 10.0, 2000: 10.0}}
    labels = {k: v[0] for k, v in pybench.CONFIGS.items()}
    bw = pybench.bandwidth_table("native", med, labels)
    # from 1 KiB: 2000 B in 10 us is 200 MB/s; 1 B and 1000 B are left out
    assert [ln.split()[-1] for ln in bw.splitlines() if ln.startswith("2.0 KiB")] == ["200.0"]
    assert not [ln for ln in bw.splitlines() if ln.startswith(("1 B", "1000"))]
    noise = pybench.noise_table("native", agg, labels)
    row = [ln for ln in noise.splitlines() if ln.startswith("1 B")][0]
    assert "67% (n=3)" in row   # (4 - 2) / 3


def test_configs_leave_out_what_is_missing():
    class A:
        pass
    keys = [c[0] for c in pybench.configs(A(), "/b", "/s")]
    assert keys == ["c", "py", "pyabi"]
    cfgs = pybench.configs(A(), "/b", "/s", {"rckmpi": "/r/python", "openmpi": "/o/python"},
                           "/b/bench/mpi_pingpong")
    assert [c[0] for c in cfgs] == list(pybench.CONFIGS)
    launchers = {c[0]: c[4] for c in cfgs}
    assert launchers["compi"] == launchers["mpi4pyompi"] == "mpirun"
    assert {c[0]: c[2][0] for c in cfgs}["mpi4pyompi"] == "/o/python"
    # Open MPI's mpi4py without its C pingpong: neither
    cfgs = pybench.configs(A(), "/b", "/s", {"openmpi": "/o/python"}, None)
    assert [c[0] for c in cfgs] == ["c", "py", "pyabi"]


def test_mpi4pyenv_missing_is_a_reason(tmp_path):
    ok, why = mpi4pyenv.check(str(tmp_path / "nope" / "python"), "rckmpi")
    assert not ok and "does not exist" in why
    ok, why = mpi4pyenv.check(sys.executable, "rckmpi") if not _has_mpi4py() else (False, "x")
    assert not ok and why
    cache = str(tmp_path / "cache")
    py, why = mpi4pyenv.ensure("rckmpi", str(tmp_path / "build"), cache, build=False)
    assert py is None and "not built" in why
    py, why = mpi4pyenv.ensure("rckmpi", str(tmp_path / "build"), cache)  # no rckmpicc: no build
    assert py is None and "rckmpicc" in why
    with pytest.raises(ValueError):
        mpi4pyenv.ensure("mpich", str(tmp_path))


def _has_mpi4py():
    try:
        import mpi4py  # noqa: F401
        return True
    except ImportError:
        return False
