"""The python suite's pure functions (python/src/rockcreek/bench/pybench.py)."""

import pytest

from rockcreek.bench import pybench, report


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
    labels = {"c": "C", "py": "P", "cmpi": "CM", "mpi4py": "M"}
    t = pybench.overhead_table("sim", med, labels)
    lines = t.splitlines()
    row1 = [ln for ln in lines if ln.startswith("1 B")][0].split()
    # size, C, P, CM, M, py-C, mpi4py-C MPI, ratio
    assert row1[-3:] == ["27.00", "8.00", "3.4x"]
    row2 = [ln for ln in lines if ln.startswith("1 KiB")][0]
    assert row2.rstrip().endswith("-")   # no mpi4py point: no ratio
