"""rockcreek.caps: a report's capabilities, the launcher's backends asked
for theirs, and scripts/check-backend-names.py refusing Python that
compares a backend's name (issue 32)."""
import json
import os
import re
import subprocess
import sys

import pytest

from rockcreek import caps
from rockcreek.report import load

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CHECK = os.path.join(ROOT, "scripts", "check-backend-names.py")


def test_report_caps():
    assert caps.report_caps({"capabilities": ["shared_memory"]}) == \
        frozenset(["shared_memory"])
    # a sim report: the timed model's format
    assert caps.report_caps({"rockcreek_sim_report": 1,
                             "simulated_cycles": 5}) == frozenset(["timed"])
    assert caps.report_caps({"rockcreek_report": 1}) == frozenset()


def test_run_asks_capabilities(tmp_path):
    # a backend of another name with a timing model reads as chip time
    doc = {"rockcreek_report": 1, "backend": "fpga",
           "capabilities": ["timed"], "host_seconds": 1.0}
    p = tmp_path / "r.json"
    p.write_text(json.dumps(doc))
    run = load.load(str(p))
    assert run.timed and run.seconds_label == "chip time"
    doc["capabilities"] = []
    p.write_text(json.dumps(doc))
    assert load.load(str(p)).seconds_label == "host time"


def test_backend_caps_from_rck(tmp_path):
    rck = tmp_path / "rck"
    rck.write_text("#!/bin/sh\ntest \"$1 $2\" = \"backends --json\" || "
                   "exit 2\necho '{\"a\": [\"timed\"], \"b\": []}'\n")
    rck.chmod(0o755)
    assert caps.timed(str(rck), "a") and not caps.timed(str(rck), "b")
    assert not caps.has(str(rck), "c", "timed")
    with pytest.raises(caps.CapsError):
        caps.backend_caps(str(tmp_path / "missing"))


def _check(root):
    return subprocess.run([sys.executable, CHECK, str(root)],
                          capture_output=True, text=True)


def test_checker_refuses_python_comparisons(tmp_path):
    pkg = tmp_path / "python" / "src" / "m"
    pkg.mkdir(parents=True)
    (tmp_path / "src").mkdir()
    (pkg / "ok.py").write_text("def f(r):\n    return r.timed\n")
    assert _check(tmp_path).returncode == 0
    for bad in ('b == "sim"', '"native" != b', 'b in ("mpi", "x")',
                'b not in ["sim"]'):
        (pkg / "bad.py").write_text("def f(b):\n    return %s\n" % bad)
        r = _check(tmp_path)
        assert r.returncode == 1 and "bad.py:2" in r.stdout, bad
    # a comparison that is not about a backend, allowed by name
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "check-backend-names.allow").write_text(
        "python/src/m/bad.py: b not in [\"sim\"]\n")
    assert _check(tmp_path).returncode == 0


def test_tree_is_clean():
    r = _check(ROOT)
    assert r.returncode == 0, r.stdout


def test_report_names_registered_libraries(tmp_path):
    # a library's row of its own (rck/lib.h: snetq, ip) shows by its name
    from rockcreek.report import text
    m = [[0, 5], [7, 0]]
    doc = {"rockcreek_report": 1, "backend": "native", "capabilities": [],
           "nues": 2, "host_seconds": 0.5,
           "comm": {"ues": 2, "libraries": ["rcce", "snetq", "ip"],
                    "bytes": {"rcce": [[0, 0], [0, 0]], "snetq": m,
                              "ip": [[0, 64], [0, 0]]},
                    "messages": {"rcce": [[0, 0], [0, 0]],
                                 "snetq": [[0, 1], [1, 0]],
                                 "ip": [[0, 1], [0, 0]]}}}
    p = tmp_path / "r.json"
    p.write_text(json.dumps(doc))
    out = text.render(load.load(str(p)))
    assert re.search(r"snetq\s+12 B in 2 messages", out), out
    assert re.search(r"ip\s+64 B in 1 messages?", out), out
