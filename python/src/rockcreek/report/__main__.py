"""rck report RUN.json [-o FILE.html] [--trace TRACE.json] [--text]"""

import argparse
import os
import sys

from .load import ReportError, load


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="rck report",
        description="Show a run's report (rck run --report FILE): one "
        "self-contained HTML page (cycles per core, mesh traffic, memory "
        "controllers, communication matrix, energy and power, DVFS, "
        "stale reads, and with --trace a per-core timeline), or a text "
        "summary.")
    ap.add_argument("report", help="the run's JSON report")
    ap.add_argument("-o", "--output", help="the HTML file to write "
                    "(default: the report's name with .html)")
    ap.add_argument("--trace", help="the run's Chrome trace (rck run "
                    "--trace FILE), drawn as a per-core timeline")
    ap.add_argument("--text", action="store_true",
                    help="print a text summary instead of writing HTML")
    a = ap.parse_args(argv)
    try:
        run = load(a.report, a.trace)
    except ReportError as e:
        print("rck report: %s" % e, file=sys.stderr)
        return 2
    if a.text:
        from . import text
        sys.stdout.write(text.render(run))
        return 0
    try:
        from . import page
    except ImportError as e:  # matplotlib missing: a message, not a trace
        print("rck report: the HTML page needs the Python module %s "
              "(scripts/install-deps.sh installs it; --text works without "
              "it)" % (e.name or e), file=sys.stderr)
        return 2
    out = a.output
    if out is None:
        base = a.report[:-5] if a.report.endswith(".json") else a.report
        out = base + ".html"
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(page.render(run))
    except OSError as e:
        print("rck report: cannot write '%s': %s" % (out, e.strerror),
              file=sys.stderr)
        return 2
    print("rck report: wrote %s" % os.path.abspath(out))
    return 0


def cli(argv=None):
    """Entry point of rck-report and of `rck report`: a missing optional
    module is one line and status 2."""
    from .._deps import run_cli
    return run_cli("rck report", main, argv)


if __name__ == "__main__":
    sys.exit(cli())
