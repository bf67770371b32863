#!/usr/bin/env python3
"""Tests of `rck report` (docs/REPORT.md) through the rck command.

  check_report.py run RCK PROG OUT     a fresh sim run of PROG (report and
                                       trace), its HTML and its text
  check_report.py browser RCK DATA OUT the checked-in run's page rendered
                                       in headless Chromium: every figure
                                       decoded and drawn, a screenshot
                                       that is not blank
Prints "FAILED: ..." and exits 1 on a failure; exits 77 (skipped) only
when no Chromium is installed.
"""
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("FAILED: " + msg)
    sys.exit(1)


def sh(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    return p.returncode, p.stdout, p.stderr


def figures_in(html_path):
    with open(html_path, encoding="utf-8") as f:
        page = f.read()
    return len(re.findall(r'<img class="figure"', page)), page


def run_mode(rck, prog, out):
    os.makedirs(out, exist_ok=True)
    rep = os.path.join(out, "run.json")
    trace = os.path.join(out, "run.trace.json")
    page = os.path.join(out, "run.html")
    rc, o, e = sh([rck, "run", "-n", "4", "--backend", "sim", "--compute",
                   "none", "--report", rep, "--trace", trace, prog, "4"])
    if rc != 0:
        fail("the run failed (%d): %s" % (rc, e[-2000:]))
    rc, o, e = sh([rck, "report", rep, "--trace", trace, "-o", page])
    if rc != 0 or "wrote" not in o:
        fail("rck report failed (%d): %s %s" % (rc, o, e))
    n, html = figures_in(page)
    # cycles, mesh, controllers, comm, energy, power, DVFS, timeline
    if n != 8:
        fail("%d figures in the page, expected 8" % n)
    for want in ("DVFS changes", "island 0", "Per-core timeline",
                 "0 stale reads"):
        if want not in html:
            fail("'%s' missing from the page" % want)
    rc, o, e = sh([rck, "report", "--text", rep])
    if rc != 0:
        fail("rck report --text failed: %s" % e)
    for want in ("backend        sim", "DVFS changes", "rcce",
                 "memory controllers"):
        if want not in o:
            fail("'%s' missing from the text: %s" % (want, o))
    rc, o, e = sh([rck, "report", os.path.join(out, "missing.json")])
    if rc != 2 or "no such file" not in e:
        fail("a missing report: rc %d, %s" % (rc, e))
    print("rck report: fresh run ok (%d figures)" % n)


def browser_mode(rck, data, out):
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    if chrome is None:
        print("SKIPPED: no chromium (scripts/install-deps.sh installs it)")
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    page = os.path.join(out, "demo8.html")
    shot = os.path.join(out, "demo8.png")
    rc, o, e = sh([rck, "report", os.path.join(data, "demo8.report.json"),
                   "--trace", os.path.join(data, "demo8.trace.json"), "-o",
                   page])
    if rc != 0:
        fail("rck report failed: %s" % e)
    n, _ = figures_in(page)
    flags = ["--headless", "--no-sandbox", "--disable-gpu",
             "--hide-scrollbars", "--no-first-run", "--user-data-dir=" +
             os.path.join(out, "chromium-profile")]
    url = "file://" + os.path.abspath(page)
    rc, dom, e = sh([chrome] + flags + ["--dump-dom", url], timeout=120)
    m = re.search(r'data-figures="(\d+)" data-figures-drawn="(\d+)"', dom)
    if m is None:
        fail("the page's load script did not run (rc %d): %s" % (rc, e[-500:]))
    total, drawn = int(m.group(1)), int(m.group(2))
    if total != n or drawn != total or total == 0:
        fail("%d of %d figures drawn (%d in the file)" % (drawn, total, n))
    if os.path.exists(shot):
        os.unlink(shot)
    rc, o, e = sh([chrome] + flags + ["--window-size=1280,5200",
                                      "--screenshot=" + shot, url],
                  timeout=120)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        fail("no screenshot, or a blank one (rc %d): %s" % (rc, e[-500:]))
    print("rck report: %d of %d figures drawn in Chromium; screenshot %s"
          % (drawn, total, shot))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("run", "browser"):
        print(__doc__)
        sys.exit(2)
    (run_mode if sys.argv[1] == "run" else browser_mode)(*sys.argv[2:])
