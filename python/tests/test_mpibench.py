"""Tests of the mpi-backend suite's RMA floor parsing and table
(mpibench), on synthetic output."""

import pytest

from rockcreek.bench import mpibench, report


def test_parse_floor_output():
    out = "# comment\nop=put_4B us=1.25\n\nop=get_4B us=0.5\n"
    assert mpibench.parse_floor_output(out) == [
        {"op": "put_4B", "us": 1.25}, {"op": "get_4B", "us": 0.5}]


@pytest.mark.parametrize("text", [
    "", "op=put_4B", "us=1.0", "op=put_4B us=x", "op=put_4B us=-1",
    "op= us=1.0", "op=a us=1 extra=2"])
def test_parse_floor_output_rejects(text):
    with pytest.raises(report.BenchParseError):
        mpibench.parse_floor_output(text, source="floor")


def test_floor_table_medians_over_ok_rounds():
    recs = [{"ok": True, "results": [{"op": "put_4B", "us": v}]}
            for v in (1.0, 3.0, 2.0)]
    recs.append({"ok": False, "error": "timed out"})
    text, per_op = mpibench.floor_table("Open MPI", recs)
    assert per_op == {"put_4B": [1.0, 3.0, 2.0]}
    row = [ln for ln in text.splitlines() if ln.startswith("put_4B")][0]
    assert row.split() == ["put_4B", "2.00", "1.00-3.00", "3"]
    assert text.startswith("Open MPI: RMA floor")
