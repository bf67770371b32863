"""Plots of benchmark summaries (matplotlib, Agg backend: no display).

Every function takes the aggregate_rounds()-style summaries of report.py
({point: {median, min, max, n}}) per implementation and writes one PNG.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FuncFormatter  # noqa: E402

from .. import published  # noqa: E402
from . import report  # noqa: E402


def _core_mhz():
    """The default chip's core clock (its chip file)."""
    return published.chip_core_mhz()

_STYLES = [dict(color="tab:blue", marker="o"),
           dict(color="tab:orange", marker="s"),
           dict(color="tab:green", marker="^"),
           dict(color="tab:red", marker="v"),
           dict(color="tab:purple", marker="D"),
           dict(color="tab:brown", marker="P"),
           dict(color="tab:pink", marker="X"),
           dict(color="tab:gray", marker="*")]


def _save(fig, path, note, dpi):
    """Write the figure to path (with the note, if any, in small print at
    the bottom left), close it, and return the path."""
    if note:
        fig.text(0.01, 0.01, note, fontsize=8, alpha=0.7)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def _size_axis(ax):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(
        FuncFormatter(lambda x, _pos: report.format_size(x)
                      if x >= 1 else ""))
    for label in ax.get_xticklabels():
        label.set_rotation(45)
        label.set_horizontalalignment("right")


def _q(v, name):
    return v.get(name, v["median"])


def _size_series_plot(series, path, title, ylabel, logy, best, note=None):
    """One line per implementation: the median, a band between the
    quartiles (one noisy round must not swamp the picture) and a dotted line
    for the best round (best: "min" or "max"). Sizes of 0 cannot sit on a
    log axis and are left out."""
    fig, ax = plt.subplots(figsize=(8, 5))
    plotted = 0
    xs_all = []
    for i, (name, summary) in enumerate(series.items()):
        pts = [(k, v) for k, v in sorted(summary.items()) if k > 0]
        if not pts:
            continue
        xs = [k for k, _ in pts]
        xs_all.extend(xs)
        style = _STYLES[i % len(_STYLES)]
        ax.plot(xs, [v["median"] for _, v in pts], label=name + ": median",
                linewidth=1.5, markersize=4, **style)
        ax.fill_between(xs, [_q(v, "q1") for _, v in pts],
                        [_q(v, "q3") for _, v in pts], color=style["color"],
                        alpha=0.25, linewidth=0)
        ax.plot(xs, [v[best] for _, v in pts], linestyle=":",
                color=style["color"], linewidth=1,
                label="%s: best round (%s)" % (name, best))
        plotted += 1
    _size_axis(ax)
    if xs_all:
        ax.set_xlim(min(xs_all) / 1.4, max(xs_all) * 1.4)
    if logy and plotted:
        ax.set_yscale("log")
    ax.set_xlabel("message size")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.4)
    if plotted:
        ax.legend(fontsize="small" if plotted > 4 else None)
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
    return _save(fig, path, note, dpi=110)


def plot_latency(series, path, note=None):
    """Log-log one-way latency vs size. series: {name: {size: stats}}."""
    return _size_series_plot(series, path, "pingpong one-way latency",
                             "one-way latency [us]", True, "min", note)


def plot_bandwidth(series, path, note=None):
    """Bandwidth vs size (log x, log y). series: {name: {size: stats}}."""
    return _size_series_plot(series, path, "pingpong bandwidth",
                             "bandwidth [MB/s, 10^6 B/s]", True, "max", note)


def plot_bars(values, path, title, ylabel, note=None):
    """A bar per implementation: the median, with error bars between the
    quartiles and a dot for the best (min) round.
    values: {name: stats} (stats may be None for a missing one)."""
    names = [n for n, v in values.items() if v]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    if names:
        med = [values[n]["median"] for n in names]
        lo = [values[n]["median"] - _q(values[n], "q1") for n in names]
        hi = [_q(values[n], "q3") - values[n]["median"] for n in names]
        colors = [_STYLES[i % len(_STYLES)]["color"]
                  for i in range(len(names))]
        bars = ax.bar(names, med, yerr=[lo, hi], capsize=6, color=colors)
        for b, n in zip(bars, names):
            x = b.get_x() + b.get_width() / 2
            ax.plot([x], [values[n]["min"]], marker="o", color="black",
                    markersize=4)
            # Above the error bar, so the two never overlap.
            ax.annotate(report.format_value(values[n]["median"]),
                        (x, _q(values[n], "q3")),
                        ha="center", va="bottom", fontsize=9,
                        xytext=(0, 3), textcoords="offset points")
        ax.margins(y=0.1)
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.4)
    return _save(fig, path, note, dpi=110)


# ---------------------------------------------------------------------------
# The sim suites (rows and summaries from simbench.py).

_STATUS_COLORS = {"PASS": "tab:green", "FAIL": "tab:red",
                  "PASS (bound)": "tab:green", "FAIL (bound)": "tab:red"}


def plot_calibration_mpb(rows, path, note=None):
    """MPB costs by hop count, one panel for line writes and one for DWORD
    reads: the published hop series (line; a range as a band), the cells of
    the published (x, y) table (grey crosses) and the modelled value of
    every tile (dots) with its mean per hop count (line).
    rows: simbench.evaluate_calibration() rows."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharex=True)
    for ax, what, title in ((axes[0], "mpb_write", "MPB 32-byte line write"),
                            (axes[1], "mpb_read", "MPB DWORD read")):
        rs = [r for r in rows if r.get("series_name") == what]
        if not rs:
            ax.text(0.5, 0.5, "no data", transform=ax.transAxes,
                    ha="center")
            ax.set_title(title)
            continue
        by_hop = {}
        for r in rs:
            by_hop.setdefault(r["hops"], r["published"])
        hops = sorted(by_hop)
        lo = [p[0] if isinstance(p, (tuple, list)) else p
              for p in (by_hop[h] for h in hops)]
        hi = [p[1] if isinstance(p, (tuple, list)) else p
              for p in (by_hop[h] for h in hops)]
        mid = [(a + b) / 2.0 for a, b in zip(lo, hi)]
        ax.plot(hops, mid, color="black", linewidth=1.5,
                label="published, by hops (2.1)")
        ax.fill_between(hops, lo, hi, color="black", alpha=0.2, linewidth=0)
        ax.plot([r["hops"] - 0.12 for r in rs], [r["table"] for r in rs],
                linestyle="none", marker="x", color="grey", markersize=5,
                label="published (x, y) table (garbled in places)")
        mod = [r for r in rs if r.get("modelled") is not None]
        if mod:
            ax.plot([r["hops"] + 0.12 for r in mod],
                    [r["modelled"] for r in mod], linestyle="none",
                    marker="o", markersize=4, color="tab:blue",
                    label="modelled, each of the 24 tiles")
            means = {}
            for r in mod:
                means.setdefault(r["hops"], []).append(r["modelled"])
            hs = sorted(means)
            ax.plot(hs, [sum(means[h]) / len(means[h]) for h in hs],
                    color="tab:blue", linewidth=1, linestyle="--",
                    label="modelled, mean per hop count")
        ax.set_title(title)
        ax.set_xlabel("hops from core 0 (tile (0,0))")
        ax.set_ylabel("cycles at %g MHz" % _core_mhz())
        ax.set_xticks(range(0, 9))
        ax.grid(True, alpha=0.4)
        ax.legend(fontsize=8)
    return _save(fig, path, note, dpi=110)


def plot_calibration(rows, path, note=None):
    """Published vs modelled for every calibration row except the MPB ones
    (plotted by plot_calibration_mpb): per benchmark a pair of horizontal
    bars on a log scale, published (grey; hatched when only a lower bound
    is published) and modelled (coloured by its verdict), and on the right
    the ratio and status (not modelled yet, not a HAL operation, ...).
    rows: simbench.evaluate_calibration() rows."""
    rs = [r for r in rows if not r.get("series_name")]
    fig, ax = plt.subplots(figsize=(12, 0.3 * len(rs) + 1.8))
    if not rs:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
    ys = list(range(len(rs)))
    h = 0.38
    top = 10.0
    for y, r in zip(ys, rs):
        pub = r.get("published")
        if isinstance(pub, (tuple, list)):
            pub = (pub[0] + pub[1]) / 2.0
        if pub is None and r.get("bound") is not None:
            pub = r["bound"]
        if pub:
            ax.barh(y - h / 2, pub, h, color="lightgrey", edgecolor="black",
                    linewidth=0.5, hatch="//" if r.get("bound") else None)
            top = max(top, pub)
        m = r.get("modelled")
        if m:
            ax.barh(y + h / 2, m, h,
                    color=_STATUS_COLORS.get(r["status"], "tab:blue"))
            top = max(top, m)
    for y, r in zip(ys, rs):
        text = r["status"]
        if r.get("ratio") is not None:
            text = "%s  x%.2f" % (text, r["ratio"])
        ax.text(1.01, y, text, transform=ax.get_yaxis_transform(),
                va="center", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlim(0.5, top * 3)
    if rs:
        ax.set_ylim(len(rs) - 0.5, -0.5)
    ax.set_yticks(ys)
    ax.set_yticklabels(["%s [%s]" % (r["name"], r["unit"]) for r in rs],
                       fontsize=7)
    ax.set_xlabel("cycles at %g MHz, or MiB/s for bandwidths (log)"
                  % _core_mhz())
    ax.set_title("sim calibration: published (grey; hatched: lower bound) vs "
                 "modelled (green PASS, red FAIL, blue no figure)",
                 fontsize=10)
    ax.grid(True, axis="x", alpha=0.4)
    return _save(fig, path, note, dpi=110)


def plot_speed(benches, summary, path, note=None):
    """sim-speed: host time / simulated chip time per benchmark (bar: the
    median, error bar: min..max, dot: best round), with the target as a red
    dash where there is one. benches: simbench.speed_benches(); summary:
    {key: simbench.aggregate_speed(...)}."""
    fig, ax = plt.subplots(figsize=(8, 5))
    names, med, lo, hi, mins, targets = [], [], [], [], [], []
    for b in benches:
        a = summary.get(b["key"], {}).get("ratio")
        if not a:
            continue
        names.append(b["label"])
        med.append(a["median"])
        lo.append(a["median"] - a["min"])
        hi.append(a["max"] - a["median"])
        mins.append(a["min"])
        targets.append(b.get("target"))
    if names:
        xs = list(range(len(names)))
        ax.bar(xs, med, yerr=[lo, hi], capsize=6, color="tab:blue")
        ax.plot(xs, mins, linestyle="none", marker="o", color="black",
                markersize=4, label="best round")
        labelled = False
        for x, t in zip(xs, targets):
            if t is not None:
                ax.plot([x - 0.45, x + 0.45], [t, t], color="tab:red",
                        linewidth=2,
                        label=None if labelled else "target (issue)")
                labelled = True
            ax.annotate("%.1fx" % med[x], (x, med[x] + hi[x]),
                        xytext=(0, 3), textcoords="offset points",
                        ha="center", va="bottom", fontsize=9)
        ax.set_xticks(xs)
        ax.set_xticklabels(names, rotation=15, ha="right")
        ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
        ax.legend()
        ax.margins(y=0.15)
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
    ax.set_ylabel("host wall time / simulated chip time")
    ax.set_title("sim speed (lower is faster; 1 = the chip's own speed)")
    ax.grid(True, axis="y", alpha=0.4)
    return _save(fig, path, note, dpi=110)


def _series_axes(ax, series, best, ylabel, title, logy=True):
    plotted = 0
    for i, (name, summary) in enumerate(series.items()):
        pts = [(k, v) for k, v in sorted(summary.items()) if k > 0]
        if not pts:
            continue
        style = _STYLES[i % len(_STYLES)]
        xs = [k for k, _ in pts]
        ax.plot(xs, [v["median"] if isinstance(v, dict) else v
                     for _, v in pts], label=name, linewidth=1.5,
                markersize=4, **style)
        if best and all(isinstance(v, dict) for _, v in pts):
            ax.plot(xs, [v[best] for _, v in pts], linestyle=":",
                    color=style["color"], linewidth=1)
        plotted += 1
    _size_axis(ax)
    if logy and plotted:
        ax.set_yscale("log")
    ax.set_xlabel("message size")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.4)
    if plotted:
        ax.legend(fontsize=7)
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")


def plot_ircce(native_lat, native_bw, sim_lat, path, note=None):
    """Three panels: native latency (us; median, best round dotted), native
    bandwidth (MB/s), sim latency (cycles); one line per mode."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 5))
    _series_axes(axes[0], native_lat, "min", "one-way latency (us)",
                 "native: latency")
    _series_axes(axes[1], native_bw, "max", "bandwidth (MB/s)",
                 "native: bandwidth")
    _series_axes(axes[2], sim_lat, None, "one-way latency (cycles)",
                 "sim (compute none): latency")
    return _save(fig, path, note, dpi=100)


def plot_collectives(rows, sim_rows, path, note=None):
    """Per block size: time per call against UEs (log-log), native
    rockcreek collectives (solid), Open MPI's (dashed, black shades), and
    the sim's cycles (second row)."""
    sizes = sorted({r["size"] for r in rows} | {r["size"] for r in sim_rows})
    if not sizes:
        sizes = [0]
    fig, axes = plt.subplots(2, len(sizes), figsize=(7 * len(sizes), 10),
                             squeeze=False)
    cmap = plt.get_cmap("tab20")
    for j, size in enumerate(sizes):
        ax = axes[0][j]
        colls = []
        for r in rows:
            if r["size"] == size and r["coll"] not in colls:
                colls.append(r["coll"])
        for i, c in enumerate(colls):
            pts = sorted((r["ues"], r["ours"]["median"]) for r in rows
                         if r["coll"] == c and r["size"] == size)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    markersize=3, color=cmap(i % 20), label=c)
        mpi = {}
        for r in rows:
            if r["size"] == size and r["ref"]:
                mpi.setdefault(r["mpi_coll"], {})[r["ues"]] = \
                    r["ref"]["median"]
        for i, (c, pts) in enumerate(sorted(mpi.items())):
            xs = sorted(pts)
            ax.plot(xs, [pts[x] for x in xs], linestyle="--", marker="x",
                    markersize=3, color=str(0.1 + 0.1 * (i % 7)),
                    label="MPI_" + c)
        ax.set_title("native, %s blocks" % report.format_size(size),
                     fontsize=10)
        ax.set_ylabel("us per call (median)")
        ax2 = axes[1][j]
        for i, c in enumerate(colls or sorted({r["coll"] for r in sim_rows})):
            pts = sorted((r["ues"], r["cycles"]) for r in sim_rows
                         if r["coll"] == c and r["size"] == size)
            if pts:
                ax2.plot([p[0] for p in pts], [p[1] for p in pts],
                         marker="o", markersize=3, color=cmap(i % 20),
                         label=c)
        ax2.set_title("sim (compute none), %s blocks"
                      % report.format_size(size), fontsize=10)
        ax2.set_ylabel("cycles per call")
        for a in (ax, ax2):
            a.set_xscale("log", base=2)
            a.set_yscale("log")
            a.set_xlabel("UEs")
            a.grid(True, alpha=0.4)
            if a.get_legend_handles_labels()[0]:
                a.legend(fontsize=6, ncol=2)
            else:
                a.text(0.5, 0.5, "no data", transform=a.transAxes,
                       ha="center")
    return _save(fig, path, note, dpi=90)
