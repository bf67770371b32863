"""`rck report`: one self-contained HTML page (figures embedded as PNG
data URIs, no script or style from the network)."""

import base64
import html
import io

from . import figures
from .load import CATEGORIES
from .text import dvfs_text, ending, summary_lines

CSS = """
body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       margin: 0 auto; max-width: 1200px; padding: 1em 2em; color: #222; }
h1 { font-size: 1.5em; border-bottom: 2px solid #4c72b0; padding-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 1.6em; color: #2a4d7f; }
table { border-collapse: collapse; font-size: .9em; }
td, th { padding: .2em .8em; border-bottom: 1px solid #ddd; text-align: left; }
th { background: #f2f4f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; height: auto; display: block; margin: .5em 0; }
.absent { color: #777; font-style: italic; }
nav a { margin-right: 1em; }
section.ending { border: 2px solid #c44e52; background: #fdf1f1;
                 padding: .2em 1em 1em; }
section.ending h2 { color: #a02c2c; }
footer { margin-top: 3em; color: #777; font-size: .8em; }
"""

# Marks the page once every figure has decoded (the browser test reads it).
SCRIPT = """
window.addEventListener('load', function () {
  var imgs = document.querySelectorAll('img.figure'), ok = 0;
  for (var i = 0; i < imgs.length; i++)
    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  document.body.setAttribute('data-figures', imgs.length);
  document.body.setAttribute('data-figures-drawn', ok);
});
"""


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96)
    figures.plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(fig, alt):
    if fig is None:
        return None
    return ('<img class="figure" alt="%s" src="data:image/png;base64,%s">'
            % (html.escape(alt), _png(fig)))


def _absent(why):
    return '<p class="absent">%s</p>' % html.escape(why)


def _table(header, rows, num_cols=()):
    out = ["<table>"]
    if header:
        out.append("<tr>")
        out += ["<th>%s</th>" % html.escape(h) for h in header]
        out.append("</tr>")
    for r in rows:
        out.append("<tr>")
        for i, v in enumerate(r):
            cls = ' class="num"' if i in num_cols else ""
            out.append("<td%s>%s</td>" % (cls, html.escape(str(v))))
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def sections(run):
    """[(anchor, title, html)] in page order: the sections with data.
    A section without data is not among them; it is a line of the last
    section, "Not in this report" (absent_lines gives those lines)."""
    return _sections(run)[0]


def absent_lines(run):
    """[(title, why)]: the sections the page has no data for."""
    return _sections(run)[1]


def _sections(run):
    no_sim = "not in this report (%s backend: the sim reports it)" % \
        run.backend
    s, gone = [], []

    def add(anchor, title, body, why):
        if body:
            s.append((anchor, title, body))
        else:
            gone.append((title, why))

    end = ending(run)
    if end is not None:
        body = "".join("<p>%s</p>" % html.escape(l) for l in end["lines"])
        if end["rows"]:
            body += _table(end["header"], end["rows"], (0, 1))
        add("ending", end["title"], body, None)

    fig = _figure(figures.cycles_breakdown(run), "cycles per core")
    body = fig
    if run.cores and fig:
        rows = []
        for c in run.cores:
            tot = c.get("cycles", 0) or 1
            rows.append([c["ue"], c["core"], c.get("end", ""),
                         c.get("cycles", 0)] +
                        ["%.1f%%" % (100.0 * c.get(k, 0) / tot)
                         for k in CATEGORIES])
        body += "<details><summary>table</summary>%s</details>" % _table(
            ["UE", "core", "end", "cycles"] + CATEGORIES, rows,
            range(3, 4 + len(CATEGORIES)))
    add("cycles", "Cycles per core", body,
        no_sim if not run.cores else "no cycles counted in this run")

    add("mesh", "Mesh link traffic",
        _figure(figures.mesh_heatmap(run), "mesh heatmap"),
        no_sim if not run.links else "no mesh traffic in this run")
    add("memory", "Memory controllers",
        _figure(figures.memory_controllers(run), "memory controllers"),
        no_sim if not run.controllers else
        "no DRAM traffic in this run (no memory-controller accesses)")
    add("comm", "Communication matrix",
        _figure(figures.comm_matrix(run), "communication matrix"),
        "the report has no communication matrix" if not run.comm else
        "no messages between UEs in this run")

    e = _figure(figures.energy(run), "energy")
    p = _figure(figures.power_series(run), "power over time")
    add("energy", "Energy and power", (e or "") + (p or ""),
        no_sim if not run.timed else "no energy in this report")

    if run.dvfs:
        body = _figure(figures.dvfs_steps(run), "DVFS") + _table(
            ["change"], [[dvfs_text(d)] for d in run.dvfs])
    else:
        body = None
    add("dvfs", "DVFS changes", body,
        "no frequency or voltage change in this run"
        if run.dvfs is not None else no_sim)

    if run.stale is not None:
        tot = run.stale.get("total", 0)
        body = "<p>%d stale read%s: reads of an MPB line that another core " \
               "had changed since this core cached it (docs/SIM.md).</p>" % (
                   tot, "" if tot == 1 else "s")
        lst = run.stale.get("list") or []
        if lst:
            keys = list(lst[0].keys())
            body += _table(keys, [[d.get(k, "") for k in keys]
                                  for d in lst[:200]])
            if len(lst) > 200:
                body += "<p>(first 200 of %d)</p>" % len(lst)
        elif tot:
            body += _absent("run with RCK_SIM_HAZARDS=1 for the list")
    else:
        body = None
    add("stale", "Stale-read hazards", body, no_sim)

    add("timeline", "Per-core timeline",
        _figure(figures.timeline(run), "per-core timeline"),
        "no trace given (rck run --trace FILE, then rck report RUN.json "
        "--trace FILE)" if getattr(run, "trace", None) is None else
        "the trace has no events")
    return s, gone


def render(run):
    title = "rockcreek run: %s, %s UEs on %s" % (run.backend, run.nues,
                                                  run.chip)
    secs, gone = _sections(run)
    if gone:
        secs = secs + [("absent", "Not in this report",
                        "<ul>%s</ul>" % "".join(
                            '<li class="absent"><b>%s</b>: %s</li>' % (
                                html.escape(t), html.escape(w))
                            for t, w in gone))]
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<title>%s</title>" % html.escape(title),
           "<style>%s</style>" % CSS, "<script>%s</script>" % SCRIPT,
           "</head><body>", "<h1>%s</h1>" % html.escape(title)]
    first = 0
    if secs and secs[0][0] == "ending":  # an abnormal end comes first
        a, t, body = secs[0]
        out.append('<section id="%s" class="ending"><h2>%s</h2>%s</section>'
                   % (a, html.escape(t), body))
        first = 1
    out.append(_table(None, summary_lines(run)))
    out.append("<nav>%s</nav>" % "".join(
        '<a href="#%s">%s</a>' % (a, html.escape(t)) for a, t, _ in secs))
    for anchor, t, body in secs[first:]:
        out.append('<section id="%s"><h2>%s</h2>%s</section>' %
                   (anchor, html.escape(t), body))
    out.append("<footer>written by rck report (docs/REPORT.md) from %s"
               "</footer></body></html>" % html.escape(run.path))
    return "\n".join(out)
