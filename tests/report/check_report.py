#!/usr/bin/env python3
"""Tests of `rck report` (docs/REPORT.md) through the rck command.

  check_report.py run RCK PROG OUT     a fresh sim run of PROG (report and
                                       trace), its HTML and its text
  check_report.py browser RCK DATA OUT the checked-in run's page rendered
                                       in headless Chromium: every figure
                                       decoded and drawn, every menu link
                                       to a section the page has, a
                                       screenshot that is not blank
  check_report.py deadlock RCK PROG OUT a sim run of PROG (tests/sim/
                                       deadlock.c) that deadlocks: the page
                                       starts with the waiting cores, the
                                       text names them
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
    # cycles, mesh, comm, energy, power, DVFS, timeline; with --compute
    # none the program touches no DRAM: a line instead of the controllers
    if n != 7:
        fail("%d figures in the page, expected 7" % n)
    for want in ("DVFS changes", "island 0", "Per-core timeline",
                 "0 stale reads", "no DRAM traffic in this run"):
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
    nav = re.search(r"<nav>(.*?)</nav>", dom, re.S)
    hrefs = re.findall(r'href="#([^"]+)"', nav.group(1)) if nav else []
    ids = re.findall(r'<section id="([^"]+)"', dom)
    if not hrefs or hrefs != ids:
        fail("menu links %s, sections %s" % (hrefs, ids))
    if os.path.exists(shot):
        os.unlink(shot)
    rc, o, e = sh([chrome] + flags + ["--window-size=1280,5200",
                                      "--screenshot=" + shot, url],
                  timeout=120)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        fail("no screenshot, or a blank one (rc %d): %s" % (rc, e[-500:]))
    print("rck report: %d of %d figures drawn in Chromium; screenshot %s"
          % (drawn, total, shot))


def deadlock_mode(rck, prog, out):
    os.makedirs(out, exist_ok=True)
    rep = os.path.join(out, "deadlock.json")
    page = os.path.join(out, "deadlock.html")
    rc, o, e = sh([rck, "run", "-n", "2", "--backend", "sim", "--report",
                   rep, prog])
    if rc != 3:  # the program's status for the deadlock it expects
        fail("the deadlocking run: status %d, not 3: %s" % (rc, e[-2000:]))
    rc, o, e = sh([rck, "report", rep, "-o", page])
    if rc != 0:
        fail("rck report failed (%d): %s %s" % (rc, o, e))
    with open(page, encoding="utf-8") as f:
        html = f.read()
    m = re.search(r'<section id="ending" class="ending">(.*?)</section>',
                  html, re.S)
    if m is None or html.index('<section id="ending"') > html.index(
            "<table>"):
        fail("no deadlock section at the top of the page")
    for ue, peer in ((0, 1), (1, 0)):
        want = (r"<td class=\"num\">%d</td><td class=\"num\">%d</td>"
                r"<td>RCCE_send</td><td>%d</td><td>cycle \d+ \(" %
                (ue, ue, peer))
        if not re.search(want, m.group(1)):
            fail("UE %d's wait missing from the page: %s" % (ue, m.group(1)))
    rc, o, e = sh([rck, "report", "--text", rep])
    if rc != 0 or not o.startswith("THE RUN DEADLOCKED"):
        fail("--text (%d) does not start with the deadlock: %s" % (rc, o))
    for ue, peer in ((0, 1), (1, 0)):
        want = (r"UE %d \(core %d\) in RCCE_send, peer %d, waiting since "
                r"cycle \d+" % (ue, ue, peer))
        if not re.search(want, o):
            fail("'%s' not in the text: %s" % (want, o))
    print("rck report: the deadlock is on the page and in the text")


if __name__ == "__main__":
    modes = {"run": run_mode, "browser": browser_mode,
             "deadlock": deadlock_mode}
    if len(sys.argv) != 5 or sys.argv[1] not in modes:
        print(__doc__)
        sys.exit(2)
    modes[sys.argv[1]](*sys.argv[2:])
