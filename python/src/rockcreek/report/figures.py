"""The report's figures (matplotlib, drawn off screen). Each function takes
a Run and returns a Figure, or None when the run has no such data."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cm, colors  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

from .load import CATEGORIES, comm_totals  # noqa: E402

CAT_COLORS = {"compute": "#4c72b0", "mpb": "#dd8452", "dram": "#c44e52",
              "wait": "#bcbcbc", "interrupts": "#8172b3", "other": "#937860"}
TRACE_COLORS = {"compute": "#4c72b0", "mpb": "#dd8452", "dram": "#c44e52",
                "shm": "#c44e52", "wait": "#bcbcbc", "irq": "#8172b3",
                "interrupt": "#8172b3", "tas": "#55a868", "call": "#b7dfc0"}


def _fig(w=9.0, h=4.5):
    fig, ax = plt.subplots(figsize=(w, h))
    return fig, ax


def cycles_breakdown(run):
    """Stacked bars: each core's cycles by category."""
    if not run.cores:
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
    if not run.links:
        return None
    xs = [p for l in run.links for p in (l["from"][0], l["to"][0])]
    ys = [p for l in run.links for p in (l["from"][1], l["to"][1])]
    nx, ny = max(xs) + 1, max(ys) + 1
    fig, ax = _fig(1.6 * nx + 2.4, 1.6 * ny + 1.0)
    vmax = max(l["bytes"] for l in run.links) or 1
    norm = colors.LogNorm(vmin=1, vmax=max(vmax, 2))
    cmap = plt.get_cmap("inferno_r")
    segs, cols, widths = [], [], []
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
    ax.add_collection(LineCollection(segs, colors=cols, linewidths=widths,
                                     capstyle="butt"))
    for x in range(nx):
        for y in range(ny):
            ax.add_patch(plt.Rectangle((x - 0.17, y - 0.17), 0.34, 0.34,
                                       facecolor="white", edgecolor="#333",
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
    fig.colorbar(sm, ax=ax, label="bytes (grey: 0)", shrink=0.85)
    fig.tight_layout()
    return fig


def memory_controllers(run):
    """Accesses and queueing per memory controller; with the P54C model,
    each core's DRAM transactions by controller."""
    if not run.controllers:
        return None
    per_core = [c for c in (run.cores or []) if "p54c" in c and
                c["p54c"].get("dram_by_mc")]
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
    if total is None:
        return None
    n = len(total)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.8),
                                  gridspec_kw={"width_ratios": [1.3, 1]})
    vmax = max((v for r in total for v in r), default=0)
    if vmax > 0:
        im = ax.imshow(total, cmap="viridis", norm=colors.LogNorm(
            vmin=1, vmax=max(vmax, 2)), interpolation="nearest")
        fig.colorbar(im, ax=ax, label="bytes (log)")
    else:
        ax.imshow([[0] * n for _ in range(n)], cmap="Greys", vmin=0, vmax=1)
        ax.text(n / 2 - 0.5, n / 2 - 0.5, "no traffic", ha="center")
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


def power_series(run):
    """Chip power over time, with each island's share stacked, and the
    DVFS changes as vertical marks."""
    s = (run.power or {}).get("series")
    if not s or not s.get("t_s"):
        return None
    t = [v * 1e3 for v in s["t_s"]]
    isl = s.get("island_w") or []
    fig, ax = _fig(10, 4.2)
    if isl:
        n = len(isl[0])
        ax.stackplot(t, [[row[i] for row in isl] for i in range(n)],
                     labels=["island %d" % i for i in range(n)], alpha=0.8,
                     step="pre")
    ax.step(t, s["chip_w"], where="pre", color="black", linewidth=1.5,
            label="chip (islands + uncore)")
    for d in run.dvfs or []:
        ax.axvline(d["t_s"] * 1e3, color="#c44e52", linewidth=0.7,
                   alpha=0.6, linestyle="--")
    ax.set_xlabel("chip time (ms)")
    ax.set_ylabel("W")
    ax.set_ylim(bottom=0)
    ax.set_title("Power over time (sensor period %g us; dashed: DVFS "
                 "changes); average %.4g W" %
                 (s.get("period_s", 0) * 1e6, run.power.get("avg_w", 0)))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def dvfs_steps(run):
    """Each island's divider and voltage over the run."""
    if not run.dvfs:
        return None
    end = (run.seconds or 0) * 1e3
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 4.6), sharex=True)
    islands = sorted({d["island"] for d in run.dvfs})
    for i in islands:
        fr = [d for d in run.dvfs if d["island"] == i and
              d.get("what") == "freq"]
        vo = [d for d in run.dvfs if d["island"] == i and
              d.get("what") == "volt"]
        if fr:
            a1.step([d["t_s"] * 1e3 for d in fr] + [end],
                    [d["divider"] for d in fr] + [fr[-1]["divider"]],
                    where="post", color="C%d" % (i % 10),
                    label="island %d" % i)
        for d in vo:
            t0 = d["t_s"] * 1e3
            t1 = (d["done_s"] * 1e3 if d.get("done_s") is not None
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
    a2.set_xlabel("chip time (ms)")
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
    step = max(1, total // max_events)
    seen = set()
    for row, tid in enumerate(lanes):
        by_cat = {}
        for k, (ts, dur, cat, name) in enumerate(tr["lanes"][tid]):
            if k % step:
                continue
            by_cat.setdefault(cat, []).append((ts, max(dur, 1e-3)))
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
    ax.set_xlabel("chip time (us)")
    ax.set_title("Per-core timeline (%s%s)" % (
        tr["path"].split("/")[-1],
        "" if step == 1 else ", every %dth event of %d" % (step, total)))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    return fig
