"""The report's figures (matplotlib, drawn off screen). Each function takes
a Run and returns a Figure, or None when the run has no such data."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cm, colors  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.ticker import (FixedLocator, FuncFormatter,  # noqa: E402
                               MaxNLocator)

from .load import CATEGORIES, comm_totals  # noqa: E402
from .text import ordinal, run_seconds, time_unit  # noqa: E402

# The mesh: link colours from MESH_CMAP; router outlines and direction
# marks in a colour that is not in it (a blue against yellow to dark red).
MESH_CMAP = "YlOrRd"
MESH_OUTLINE = "#1f5fbf"

CAT_COLORS = {"compute": "#4c72b0", "mpb": "#dd8452", "dram": "#c44e52",
              "wait": "#bcbcbc", "interrupts": "#8172b3", "other": "#937860"}
TRACE_COLORS = {"compute": "#4c72b0", "mpb": "#dd8452", "dram": "#c44e52",
                "shm": "#c44e52", "wait": "#bcbcbc", "irq": "#8172b3",
                "interrupt": "#8172b3", "tas": "#55a868", "call": "#b7dfc0"}


def _fig(w=9.0, h=4.5):
    fig, ax = plt.subplots(figsize=(w, h))
    return fig, ax


def page_time_unit(run):
    """(name, factor from seconds): the one unit of every time axis of the
    run's page (text.time_unit of the run's length)."""
    return time_unit(run_seconds(run))


def _size_label(v, _pos=None):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(v) >= k:
            return "%g %s" % (round(v / k, 1), unit)
    return "%g" % v


def size_ticks(top, most=5):
    """Byte ticks from 0 to @p top at a round step of B, KiB, MiB or GiB
    (1, 2, 5 times a power of ten of the unit), at most @p most + 1."""
    k = 1
    for unit in (1 << 30, 1 << 20, 1 << 10):
        if top >= unit:
            k = unit
            break
    m, step, p = top / k, 1, 1
    while True:
        for f in (1, 2, 5):
            step = f * p
            if m / step <= most:
                return [i * step * k for i in range(int(m // step) + 1)]
        p *= 10


def label_boxes(fig, ax, which="x"):
    """The window extents of @p ax's visible, non-empty tick labels."""
    r = fig.canvas.get_renderer()
    ticks = ax.get_xticklabels() if which == "x" else ax.get_yticklabels()
    return [t.get_window_extent(renderer=r) for t in ticks
            if t.get_visible() and t.get_text()]


def boxes_overlap(boxes):
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a.overlaps(b):
                return True
    return False


def _unclash_x(fig, ax):
    """Tick labels of the x axis that overlap are turned, then thinned,
    until none does."""
    fig.canvas.draw()
    if not boxes_overlap(label_boxes(fig, ax)):
        return
    for t in ax.get_xticklabels():
        t.set_rotation(35)
        t.set_ha("right")
    fig.canvas.draw()
    n = 6
    while boxes_overlap(label_boxes(fig, ax)) and n > 2:
        n -= 1
        ax.xaxis.set_major_locator(MaxNLocator(nbins=n))
        fig.canvas.draw()


def downsample(t, y, buckets):
    """Samples (t, y) in at most @p buckets equal runs of consecutive
    samples: (t of each run's first sample, min, mean, max, samples per
    run). Fewer samples than buckets: each is its own run."""
    n = len(t)
    if n <= buckets:
        return list(t), list(y), list(y), list(y), 1
    per = -(-n // buckets)  # ceiling
    ts, lo, mean, hi = [], [], [], []
    for i in range(0, n, per):
        chunk = y[i:i + per]
        ts.append(t[i])
        lo.append(min(chunk))
        hi.append(max(chunk))
        mean.append(sum(chunk) / len(chunk))
    return ts, lo, mean, hi, per


def cycles_breakdown(run):
    """Stacked bars: each core's cycles by category."""
    if not run.cores or not any(c.get(k) for c in run.cores
                                for k in CATEGORIES):
        return None
    n = len(run.cores)
    fig, ax = _fig(max(6.0, min(16.0, 2.0 + 0.28 * n)), 4.5)
    labels = ["%d" % c["ue"] for c in run.cores]
    x = range(n)
    bottom = [0.0] * n
    scale = 1e6
    for cat in CATEGORIES:
        vals = [c.get(cat, 0) / scale for c in run.cores]
        if not any(vals):
            continue
        ax.bar(x, vals, bottom=bottom, color=CAT_COLORS[cat], label=cat,
               width=0.8)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=8 if n > 24 else 9)
    ax.set_xlabel("UE")
    ax.set_ylabel("million cycles (base core clock)")
    ax.set_title("Where each core's time went")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def mesh_heatmap(run):
    """The mesh: routers on their grid, each directed link coloured by the
    bytes it carried (the two directions side by side)."""
    if not run.links or not any(l["bytes"] or l["packets"]
                                for l in run.links):
        return None
    xs = [p for l in run.links for p in (l["from"][0], l["to"][0])]
    ys = [p for l in run.links for p in (l["from"][1], l["to"][1])]
    nx, ny = max(xs) + 1, max(ys) + 1
    fig, ax = _fig(1.6 * nx + 2.4, 1.6 * ny + 1.0)
    vmax = max(l["bytes"] for l in run.links) or 1
    norm = colors.LogNorm(vmin=1, vmax=max(vmax, 2))
    cmap = plt.get_cmap(MESH_CMAP)
    segs, cols, widths = [], [], []
    marks = []
    off = 0.09
    for l in run.links:
        (x0, y0), (x1, y1) = l["from"], l["to"]
        # draw each direction on its own side of the line between routers
        if y0 == y1:
            d = off if x1 > x0 else -off
            seg = [(x0 + 0.18 * (x1 - x0), y0 + d), (x1 - 0.18 * (x1 - x0),
                                                     y1 + d)]
        else:
            d = off if y1 > y0 else -off
            seg = [(x0 - d, y0 + 0.18 * (y1 - y0)), (x1 - d,
                                                     y1 - 0.18 * (y1 - y0))]
        segs.append(seg)
        b = l["bytes"]
        cols.append(cmap(norm(b)) if b > 0 else (0.85, 0.85, 0.85, 1.0))
        widths.append(5.0 if b > 0 else 2.0)
        # the direction: an arrowhead at the receiving end of the link
        marker = ((">" if x1 > x0 else "<") if y0 == y1 else
                  ("^" if y1 > y0 else "v"))
        (sx, sy), (ex, ey) = seg  # three quarters along, clear of the box
        marks.append(((sx + 0.75 * (ex - sx), sy + 0.75 * (ey - sy)),
                      marker))
    ax.add_collection(LineCollection(segs, colors=cols, linewidths=widths,
                                     capstyle="butt"))
    for (mx, my), marker in marks:
        ax.plot([mx], [my], marker=marker, markersize=6, linestyle="none",
                color=MESH_OUTLINE, zorder=4, gid="mesh-direction")
    for x in range(nx):
        for y in range(ny):
            ax.add_patch(plt.Rectangle((x - 0.17, y - 0.17), 0.34, 0.34,
                                       facecolor="white", edgecolor=MESH_OUTLINE,
                                       linewidth=1.0, zorder=3))
            ax.text(x, y, "%d,%d" % (x, y), ha="center", va="center",
                    fontsize=8, zorder=4)
    if run.hottest:
        h = run.hottest
        ax.set_title("Mesh link traffic (hottest: (%d,%d) -> (%d,%d), %d "
                     "bytes)" % (h["from"][0], h["from"][1], h["to"][0],
                                 h["to"][1], h["bytes"]), fontsize=10)
    else:
        ax.set_title("Mesh link traffic")
    ax.set_xlim(-0.6, nx - 0.4)
    ax.set_ylim(-0.6, ny - 0.4)
    ax.set_aspect("equal")
    ax.set_xlabel("tile x")
    ax.set_ylabel("tile y")
    ax.set_xticks(range(nx))
    ax.set_yticks(range(ny))
    sm = cm.ScalarMappable(norm=norm, cmap=cmap)
    sm.set_array([])
    fig.colorbar(sm, ax=ax, label="bytes (grey: 0); arrowheads: direction",
                 shrink=0.85)
    fig.tight_layout()
    return fig


def memory_controllers(run):
    """Accesses and queueing per memory controller; with the P54C model,
    each core's DRAM transactions by controller."""
    if not run.controllers:
        return None
    per_core = [c for c in (run.cores or []) if "p54c" in c and
                c["p54c"].get("dram_by_mc") and
                any(m.get("transactions") for m in c["p54c"]["dram_by_mc"])]
    if not per_core and not any(m["accesses"] or m["queue_cycles"]
                                for m in run.controllers):
        return None  # no DRAM traffic: the page says so in a line
    ncols = 3 if per_core else 2
    fig, axes = plt.subplots(1, ncols, figsize=(4.2 * ncols, 3.8))
    names = ["MC%d" % m["mc"] for m in run.controllers]
    axes[0].bar(names, [m["accesses"] for m in run.controllers],
                color="#4c72b0")
    axes[0].set_title("accesses")
    axes[1].bar(names, [m["queue_cycles"] / 1e6 for m in run.controllers],
                color="#c44e52")
    axes[1].set_title("queueing (million cycles, all requests)")
    if per_core:
        mcs = len(per_core[0]["p54c"]["dram_by_mc"])
        bottom = [0] * len(per_core)
        for k in range(mcs):
            vals = [c["p54c"]["dram_by_mc"][k]["transactions"]
                    for c in per_core]
            axes[2].bar(range(len(per_core)), vals, bottom=bottom,
                        label="MC%d" % k)
            bottom = [b + v for b, v in zip(bottom, vals)]
        axes[2].set_title("program DRAM transactions by UE")
        axes[2].set_xlabel("UE")
        axes[2].legend(fontsize=8, loc="upper left",
                       bbox_to_anchor=(1.0, 1.0))
    for ax in axes:
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle("Memory controllers")
    fig.tight_layout()
    return fig


def comm_matrix(run):
    """Bytes from every UE (row) to every other (column), all libraries;
    beside it, the bytes of each library that had traffic."""
    total, by_bytes, by_msgs = comm_totals(run.comm)
    if total is None or not any(v for r in total for v in r):
        return None  # no matrix, or no traffic: the page says so
    n = len(total)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.8),
                                  gridspec_kw={"width_ratios": [1.3, 1]})
    vmax = max(v for r in total for v in r)
    # linear from 0 to 1 byte, logarithmic above: the bar starts at 0
    norm = colors.SymLogNorm(linthresh=1, linscale=0.5, vmin=0,
                             vmax=max(vmax, 2), base=10)
    im = ax.imshow(total, cmap="viridis", norm=norm, interpolation="nearest")
    fig.colorbar(im, ax=ax, label="bytes (0, then log)")
    ax.set_xlabel("to UE")
    ax.set_ylabel("from UE")
    ax.set_title("Communication matrix (bytes, all libraries)")
    if n <= 16:
        ax.set_xticks(range(n))
        ax.set_yticks(range(n))
    libs = list(by_bytes)
    ax2.barh(libs, [by_bytes[l] for l in libs], color="#55a868")
    for i, l in enumerate(libs):
        if by_bytes[l]:
            ax2.text(by_bytes[l], i, " %d msgs" % by_msgs.get(l, 0),
                     va="center", fontsize=8)
    ax2.set_xlabel("bytes sent")
    ax2.set_title("By library")
    ax2.invert_yaxis()
    ax2.grid(True, axis="x", alpha=0.3)
    top = max(list(by_bytes.values()) + [1]) * 1.25
    ax2.set_xlim(0, top)
    ax2.xaxis.set_major_locator(FixedLocator(size_ticks(top)))
    ax2.xaxis.set_major_formatter(FuncFormatter(_size_label))
    fig.tight_layout()
    _unclash_x(fig, ax2)
    fig.tight_layout()
    return fig


def energy(run):
    """Energy per core and per island."""
    if not run.energy:
        return None
    pc = run.energy.get("per_core_j") or []
    pi = run.energy.get("per_island_j") or []
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.8),
                                 gridspec_kw={"width_ratios": [2.2, 1]})
    a1.bar(range(len(pc)), [v * 1e3 for v in pc], color="#dd8452")
    a1.set_xlabel("core")
    a1.set_ylabel("mJ")
    a1.set_title("Energy per core (cores of the chip, idle ones too)")
    a2.bar(["I%d" % i for i in range(len(pi))], [v * 1e3 for v in pi],
           color="#8172b3")
    a2.set_ylabel("mJ")
    a2.set_title("Energy per voltage island")
    for a in (a1, a2):
        a.grid(True, axis="y", alpha=0.3)
    fig.suptitle("Energy: %.4g J in all, %.4g J uncore (mesh, memory)" %
                 (run.energy.get("total_j", 0),
                  run.energy.get("uncore_j", 0)))
    fig.tight_layout()
    return fig


# The power chart's plot is about this many pixels wide: above this many
# samples, each pixel column shows a bucket's min-max band and mean.
POWER_BUCKETS = 600


def power_series(run, buckets=POWER_BUCKETS):
    """Chip power over time, with each island's share stacked, and the
    DVFS changes as vertical marks. More samples than @p buckets: per
    bucket of consecutive samples the mean (line, islands stacked by
    their means) and the min-max envelope of the chip power (band)."""
    s = (run.power or {}).get("series")
    if not s or not s.get("t_s"):
        return None
    unit, f = page_time_unit(run)
    t = [v * f for v in s["t_s"]]
    isl = s.get("island_w") or []
    fig, ax = _fig(10, 4.2)
    ts, lo, mean, hi, per = downsample(t, s["chip_w"], buckets)
    if isl:
        n = len(isl[0])
        shares = [downsample(t, [row[i] for row in isl], buckets)[2]
                  for i in range(n)]
        ax.stackplot(ts, shares, labels=["island %d" % i for i in range(n)],
                     alpha=0.8, step="pre")
    if per > 1:
        ax.fill_between(ts, lo, hi, step="pre", color="black", alpha=0.25,
                        linewidth=0, label="chip: min to max")
    ax.step(ts, mean, where="pre", color="black", linewidth=1.2,
            label="chip (islands + uncore)" + (": mean" if per > 1 else ""))
    for d in run.dvfs or []:
        ax.axvline(d["t_s"] * f, color="#c44e52", linewidth=0.7,
                   alpha=0.6, linestyle="--")
    ax.set_xlabel("chip time (%s)" % unit)
    ax.set_ylabel("W")
    ax.set_ylim(bottom=0)
    period = s.get("period_s", 0) * 1e6
    if per > 1:
        shown = ("%d samples of %g us, each point the mean of %d (band: "
                 "their min to max)" % (len(t), period, per))
    else:
        shown = "%d samples of %g us" % (len(t), period)
    ax.set_title("Power over time: %s;\ndashed: DVFS changes; average "
                 "%.4g W" % (shown, run.power.get("avg_w", 0)), fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.rck_samples_per_point = per
    return fig


def dvfs_steps(run):
    """Each island's divider and voltage over the run."""
    if not run.dvfs:
        return None
    unit, f = page_time_unit(run)
    end = (run.seconds or 0) * f
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 4.6), sharex=True)
    islands = sorted({d["island"] for d in run.dvfs})
    for i in islands:
        fr = [d for d in run.dvfs if d["island"] == i and
              d.get("what") == "freq"]
        vo = [d for d in run.dvfs if d["island"] == i and
              d.get("what") == "volt"]
        if fr:
            a1.step([d["t_s"] * f for d in fr] + [end],
                    [d["divider"] for d in fr] + [fr[-1]["divider"]],
                    where="post", color="C%d" % (i % 10),
                    label="island %d" % i)
        for d in vo:
            t0 = d["t_s"] * f
            t1 = (d["done_s"] * f if d.get("done_s") is not None
                  else end)
            a2.plot([t0, t1], [d["millivolts"]] * 2, linewidth=4,
                    solid_capstyle="butt", color="C%d" % (i % 10),
                    label="island %d" % i if d is vo[0] else None)
            a2.plot([t0], [d["millivolts"]], "o", color="black",
                    markersize=3)
    a1.set_ylabel("divider")
    a1.set_title("DVFS: frequency dividers (top) and voltage changes in "
                 "flight, request to regulator done (bottom)")
    a1.grid(True, alpha=0.3)
    a1.legend(fontsize=8)
    a2.set_ylabel("target mV")
    a2.set_xlabel("chip time (%s)" % unit)
    a2.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def timeline(run, max_events=60000):
    """Per-core timeline from the trace: what each core did when."""
    tr = getattr(run, "trace", None)
    if not tr or not tr["lanes"]:
        return None
    lanes = sorted(tr["lanes"])
    fig, ax = _fig(12, max(3.0, 0.32 * len(lanes) + 1.5))
    total = sum(len(v) for v in tr["lanes"].values())
    unit, f = page_time_unit(run)
    f *= 1e-6  # the trace is in microseconds
    step = max(1, total // max_events)
    seen = set()
    for row, tid in enumerate(lanes):
        by_cat = {}
        for k, (ts, dur, cat, name) in enumerate(tr["lanes"][tid]):
            if k % step:
                continue
            by_cat.setdefault(cat, []).append((ts * f, max(dur, 1e-3) * f))
        # library calls underneath, full height; what happened inside
        # them (waits, MPB transfers, ...) on top, narrower
        for cat in sorted(by_cat, key=lambda c: c != "call"):
            col = TRACE_COLORS.get(cat, "#999999")
            h = 0.8 if cat == "call" else 0.5
            ax.broken_barh(by_cat[cat], (row - h / 2, h), facecolors=col,
                           label=cat if cat not in seen else None)
            seen.add(cat)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([tr["names"].get(t) or "core %s" % t for t in lanes],
                       fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("chip time (%s)" % unit)
    ax.set_title("Per-core timeline (%s%s)" % (
        tr["path"].split("/")[-1],
        "" if step == 1 else ", every %s event of %d" % (ordinal(step), total)))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
