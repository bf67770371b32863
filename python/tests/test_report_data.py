"""rockcreek.report.data on the checked-in runs (tests/report/data)."""

import json
import os

import pytest

from rockcreek.report import data

np = pytest.importorskip("numpy")
DATA = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "report", "data")
SIM = os.path.join(DATA, "demo8.report.json")
NATIVE = os.path.join(DATA, "demo4_native.report.json")


def test_core_cycles_match_the_json():
    doc = json.load(open(SIM))
    cc = data.core_cycles(SIM)
    assert len(cc) == doc["nues"]
    for row, c in zip(cc, doc["cores"]):
        assert row["cycles"] == c["cycles"] and row["wait"] == c["wait"]
        assert row["ue"] == c["ue"]


def test_native_report_has_no_cycles():
    with pytest.raises(data.ReportError, match="sim backend"):
        data.core_cycles(NATIVE)


def test_comm_matrix_sums_libraries():
    doc = json.load(open(SIM))
    m = data.comm_matrix(SIM)
    want = sum(np.array(v) for v in doc["comm"]["bytes"].values())
    assert m.shape == (doc["comm"]["ues"],) * 2
    assert (m == want).all()
    assert (data.comm_matrix(SIM, "rcce") == np.array(doc["comm"]["bytes"]["rcce"])).all()
    with pytest.raises(data.ReportError, match="no library"):
        data.comm_matrix(SIM, "nope")


def test_power_series():
    doc = json.load(open(SIM))
    s = data.power_series(SIM)
    assert len(s["t_s"]) == len(doc["power"]["series"]["t_s"]) == len(s["chip_w"])
    assert s["chip_w"][0] == doc["power"]["series"]["chip_w"][0]


def test_msglog(tmp_path):
    p = tmp_path / "log.jsonl"
    p.write_text('{"t": 2e-6, "ue": 1, "op": "recv", "peer": 0, "bytes": 100, "lib": "rcce", '
                 '"call": "RCCE_recv"}\n{"t": 1e-6, "ue": 0, "op": "send", "peer": 1, '
                 '"bytes": 100, "lib": "rcce", "call": "RCCE_send"}\n')
    rows = data.read_msglog(str(p))
    assert [r["op"] for r in rows] == ["send", "recv"]
    p.write_text("{not json\n")
    with pytest.raises(data.ReportError, match="line 1"):
        data.read_msglog(str(p))


def test_frames_need_pandas_or_work():
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            data.core_frame(SIM)
        return
    assert len(data.core_frame(SIM)) == len(data.core_cycles(SIM))
    assert data.comm_frame(SIM)["bytes"].sum() == data.comm_matrix(SIM).sum()
