"""Tests of the native-load suite's pure functions (loadbench) and its
busy processes, on synthetic data."""

import os
import time

from rockcreek.bench import loadbench


def _runs(quiet, loaded):
    runs = [{"config": "quiet", "ok": True, "lat_us": v} for v in quiet]
    runs += [{"config": "loaded", "ok": True, "lat_us": v} for v in loaded]
    runs.append({"config": "loaded", "ok": False, "lat_us": None})
    return runs


def test_summary_and_verdict_met():
    s = loadbench.summarize(_runs([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
    assert s["quiet"]["median"] == 2.0
    assert s["loaded"]["median"] == 5.0 and s["loaded"]["n"] == 3
    v = loadbench.verdict(s)
    assert v.status == "MET"
    assert v.points[0]["ratio"] == 2.5


def test_verdict_not_met_and_not_evaluated():
    s = loadbench.summarize(_runs([1.0], [3.5]))
    assert loadbench.verdict(s).status == "NOT MET"
    s = loadbench.summarize(_runs([1.0], []))
    assert loadbench.verdict(s).status == "NOT EVALUATED"


def test_table_names_every_configuration():
    s = loadbench.summarize(_runs([2.0], [4.0]))
    t = loadbench.table(s)
    for c in loadbench.CONFIGS:
        assert c["label"] in t
    assert "2x" in t and "not run" in t


def test_busy_processes_end():
    pids = loadbench.start_busy(2, 30)
    assert len(pids) == 2
    time.sleep(0.1)
    loadbench.stop_busy(pids)
    for pid in pids:
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        assert not alive
