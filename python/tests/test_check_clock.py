"""scripts/check-clock.py finds the core clock written down (issue 32)."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts",
                      "check-clock.py")


def tree(tmp_path, src="", test="", ctest=""):
    for d in ("python/src/pkg", "python/tests", "tests/unit"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
    (tmp_path / "python/src/pkg/m.py").write_text(src)
    (tmp_path / "python/tests/test_m.py").write_text(test)
    (tmp_path / "tests/unit/t.c").write_text(ctest)
    r = subprocess.run([sys.executable, SCRIPT, str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout


def test_clean_tree_passes(tmp_path):
    rc, out = tree(tmp_path, src='CHIP = "scc-533-800-800.json"\nX = 800\n',
                   test='INPUT = "core_mhz=533"\nassert 1 == 1\n',
                   ctest='load("{\\"core\\": 533}"); /* 533 MHz */\n'
                         'CHECK(c.core_mhz == file_mhz);\n')
    assert rc == 0, out


def test_literals_are_found(tmp_path):
    rc, out = tree(tmp_path, src="MHZ = 533.0\n",
                   test='def test_x():\n    assert f() == "at 533 MHz"\n',
                   ctest="CHECK(c.core_mhz == 533);\n")
    assert rc == 1
    assert "python/src/pkg/m.py:1" in out
    assert "python/tests/test_m.py:2" in out
    assert "tests/unit/t.c:1" in out


def test_labels_in_src_are_found(tmp_path):
    rc, out = tree(tmp_path, src='LABEL = "cycles at 533.33 MHz"\n')
    assert rc == 1 and "m.py:1" in out
