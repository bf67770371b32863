"""Tests of the mpi suite's output parsing and its round-by-round ratios
(rckmpibench), on synthetic data."""

import pytest

from rockcreek.bench import rckmpibench, report


def test_parse_op_lines():
    out = ("[ 0] op=pingpong ues=2 size=64 reps=100 us=0.25\n"
           "noise\nop=bcast ues=3 size=4 reps=10 us=1.5\n")
    got = rckmpibench.parse(out)
    assert got == [
        {"op": "pingpong", "ues": 2, "size": 64, "reps": 100, "us": 0.25},
        {"op": "bcast", "ues": 3, "size": 4, "reps": 10, "us": 1.5}]


def test_parse_rejects_empty():
    with pytest.raises(report.BenchParseError):
        rckmpibench.parse("nothing here\n", source="x")


def test_paired_ratios_pair_within_rounds():
    rounds = [
        {"rockcreek": {0: 0.2, 64: 0.3}, "openmpi": {0: 0.4, 64: 0.3}},
        # a round in the far placement: both slow, ratio still 0.5 / 1
        {"rockcreek": {0: 0.5, 64: 0.9}, "openmpi": {0: 1.0, 64: 0.9}},
        # a round that lost Open MPI's 64 B point: only 0 B pairs
        {"rockcreek": {0: 0.3, 64: 0.3}, "openmpi": {0: 0.3}},
        {"rockcreek": {0: 0.3}},  # no Open MPI at all: nothing
    ]
    got = rckmpibench.paired_ratios(rounds)
    assert list(got) == [0, 64]
    assert got[0] == pytest.approx([0.5, 0.5, 1.0])
    assert got[64] == pytest.approx([1.0, 1.0])


def test_paired_ratios_skip_zero_reference():
    got = rckmpibench.paired_ratios(
        [{"rockcreek": {4: 1.0}, "openmpi": {4: 0.0}}])
    assert got == {}


def test_paired_verdict_met_and_not_met():
    # issue 27's limit: 0.8x Open MPI's latency
    met = rckmpibench.paired_verdict({0: [0.7, 0.9, 0.75], 1024: [0.8],
                                      4096: [3.0]})
    assert met.status == "MET"  # 4 KiB is above the target's sizes
    assert "0/2 sizes beyond" in met.detail and "0.8x" in met.target
    bad = rckmpibench.paired_verdict({0: [0.7], 64: [0.9, 0.85, 0.7]})
    assert bad.status == "NOT MET"
    assert "worst 64 B" in bad.detail and "0.85" in bad.detail
    # at or below Open MPI is not enough
    assert rckmpibench.paired_verdict({0: [0.95]}).status == "NOT MET"
    assert rckmpibench.paired_verdict({0: [0.95]},
                                      limit=1.0).status == "MET"
    assert rckmpibench.paired_verdict({}).status == "NOT EVALUATED"


def test_paired_table_rows():
    text = rckmpibench.paired_table("t", {0: [1.0, 2.0, 3.0]})
    assert text.startswith("t [ratio rockcreek / Open MPI")
    row = [ln for ln in text.splitlines() if ln.startswith("0 B")][0]
    assert row.split()[:3] == ["0", "B", "3"]
    assert "2.00" in row


def test_large_tables_ratios_and_verdict():
    # 16 KiB: osu_latency shape 2 us against Open MPI's 4 us (2x faster);
    # bw window of 64 x 1 MiB in 10,000 us against 5,000 (0.5x)
    got = {("sccmulti", "pingpong"): [(16384, 2.0), (16384, 2.0)],
           ("openmpi", "pingpong"): [(16384, 4.0)],
           ("sccmulti", "bw"): [(1048576, 10000.0)],
           ("openmpi", "bw"): [(1048576, 5000.0)],
           ("sccshm", "bw"): [(1048576, 2500.0)]}
    tables, ratios = rckmpibench.large_tables(got)
    assert ratios["pingpong"][16384] == pytest.approx(2.0)
    assert ratios["bw"][1048576] == pytest.approx(0.5)
    assert any("osu_bw shape" in t for t in tables)
    row = [ln for ln in tables[1].splitlines() if ln.startswith("1 MiB")][0]
    # sccmulti, sccshm, openmpi MB/s, then sccmulti and sccshm x Open MPI
    assert row.split()[2:] == ["6711", "26844", "13422", "0.500", "2.00"]
    v = rckmpibench.large_verdict(ratios)
    assert v.status == "NOT MET" and "worst bw 1 MiB" in v.detail
    assert rckmpibench.large_verdict(
        {"bw": {16384: 1.2}}).status == "MET"
    assert rckmpibench.large_verdict({}).status == "NOT EVALUATED"


def test_large_value_osu_units():
    assert rckmpibench.large_value("pingpong", 16384, 3.0) == 3.0
    assert rckmpibench.large_value("bw", 1000, 64.0) == pytest.approx(1000.0)
    assert rckmpibench.large_value("bibw", 1000, 64.0) == pytest.approx(
        2000.0)
