"""scripts/check-deps.py: the rules on graphs of known shape, and the
call graph read from real objects that a C compiler builds here."""
import importlib.util
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check-deps.py")


def load():
    spec = importlib.util.spec_from_file_location("check_deps", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


RANKS = [["util"], ["hal"], ["rckmpi", "ip"], ["tools"]]


def test_sccs_finds_circles_and_only_them():
    cd = load()
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    comps = sorted(cd.sccs(g))
    assert ["a", "b", "c"] in comps
    assert ["d"] in comps and ["e"] in comps


def test_circle_too_large_fails_unless_allowed():
    cd = load()
    g = {"hal/%d.c" % i: {"hal/%d.c" % ((i + 1) % 4)} for i in range(4)}
    bad, _ = cd.problems(g, {}, RANKS, [], 3)
    assert len(bad) == 1 and "call circle of 4 files" in bad[0]
    bad, ok = cd.problems(g, {}, RANKS, [("circle", "hal", "4")], 3)
    assert bad == [] and len(ok) == 1
    # an exception for a smaller circle does not cover a larger one
    bad, _ = cd.problems(g, {}, RANKS, [("circle", "hal", "3")], 3)
    assert any("call circle" in b for b in bad)


def test_arrow_up_and_sideways_fail_down_passes():
    cd = load()
    g = {"util/log.c": {"hal/hal.c"}, "hal/hal.c": {"util/log.c"},
         "rckmpi/p2p.c": {"ip/ip_sock.c", "hal/hal.c"},
         "ip/ip_sock.c": set(), "tools/rck.c": {"rckmpi/p2p.c"}}
    bad, _ = cd.problems(g, {}, RANKS, [], 3)
    assert "arrow up: util/log.c -> hal/hal.c" in bad
    assert "arrow up: rckmpi/p2p.c -> ip/ip_sock.c" in bad
    assert not any("tools/rck.c" in b for b in bad)
    assert not any("-> hal/hal.c" in b and "rckmpi" in b for b in bad)


def test_stale_exception_fails():
    cd = load()
    bad, _ = cd.problems({"hal/a.c": set()}, {}, RANKS,
                         [("up", "hal/a.c", "rckmpi/p2p.c")], 3)
    assert bad and "stale exception" in bad[0]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_call_graph_from_objects(tmp_path):
    cd = load()
    srcs = {"util/u.c": "int h(void); int u(void) { return h(); }",
            "hal/h.c": "int u(void); int h(void) { return 1; }\n"
                       "int g(void) { return u(); }"}
    for rel, text in srcs.items():
        top, name = rel.split("/")
        d = tmp_path / "src" / top / "CMakeFiles" / ("rck_%s.dir" % top)
        d.mkdir(parents=True)
        c = tmp_path / name
        c.write_text(text + "\n")
        subprocess.run(["cc", "-c", str(c), "-o", str(d / (name + ".o"))],
                       check=True)
    objs = cd.find_objects(str(tmp_path))
    assert sorted(objs) == ["hal/h.c", "util/u.c"]
    g = cd.graph(objs)
    assert g == {"util/u.c": {"hal/h.c"}, "hal/h.c": {"util/u.c"}}
    bad, _ = cd.problems(g, {}, RANKS, [], 3)
    assert bad == ["arrow up: util/u.c -> hal/h.c"]
