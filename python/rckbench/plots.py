"""Plots of benchmark summaries (matplotlib, Agg backend: no display).

Every function takes the aggregate_rounds()-style summaries of report.py
({point: {median, min, max, n}}) per implementation and writes one PNG.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FuncFormatter  # noqa: E402

from . import report  # noqa: E402

_STYLES = [dict(color="tab:blue", marker="o"),
           dict(color="tab:orange", marker="s"),
           dict(color="tab:green", marker="^"),
           dict(color="tab:red", marker="v")]


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
        ax.legend()
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center")
    if note:
        fig.text(0.01, 0.01, note, fontsize=8, alpha=0.7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


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
    if note:
        fig.text(0.01, 0.01, note, fontsize=8, alpha=0.7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
