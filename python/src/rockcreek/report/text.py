"""`rck report --text`: the run in plain text."""

from .load import CATEGORIES, comm_totals


def _size(b):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k:
            return "%.1f %s" % (b / k, unit)
    return "%d B" % b


def _pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


def summary_lines(run):
    """The header facts, as (label, value) pairs (the HTML uses them too)."""
    rows = [("report", run.path), ("backend", run.backend),
            ("chip", run.chip), ("UEs", str(run.nues))]
    if run.core_mhz:
        rows.append(("clocks", "core %g MHz, mesh %g MHz, memory %g MHz"
                     % (run.core_mhz, run.mesh_mhz or 0,
                        run.memory_mhz or 0)))
    if run.compute_model:
        rows.append(("compute model", run.compute_model))
    if run.ended:
        rows.append(("ended", run.ended))
    if run.seconds is not None:
        what = "%.6g s" % run.seconds
        if run.cycles is not None:
            what += " (%d cycles)" % run.cycles
        rows.append((run.seconds_label, what))
    if run.energy:
        rows.append(("energy", "%.6g J" % run.energy.get("total_j", 0)))
    if run.power:
        rows.append(("average power", "%.4g W" % run.power.get("avg_w", 0)))
    if run.stale is not None:
        rows.append(("stale reads", str(run.stale.get("total", 0))))
    return rows


def render(run):
    out = []
    w = max(len(k) for k, _ in summary_lines(run))
    for k, v in summary_lines(run):
        out.append("%-*s  %s" % (w, k, v))

    if run.cores:
        out.append("")
        out.append("cycles by category, per core (% of the core's cycles)")
        hdr = "%4s %5s %14s " % ("ue", "core", "cycles") + " ".join(
            "%9s" % c for c in CATEGORIES)
        out.append(hdr)
        for c in run.cores:
            tot = c.get("cycles", 0)
            out.append("%4d %5d %14d " % (c["ue"], c["core"], tot) + " ".join(
                "%8.1f%%" % _pct(c.get(k, 0), tot) for k in CATEGORIES))

    if run.controllers:
        out.append("")
        out.append("memory controllers")
        for m in run.controllers:
            out.append("  MC%d: %d accesses, %d cycles queued" %
                       (m["mc"], m["accesses"], m["queue_cycles"]))

    if run.links:
        busy = sorted(run.links, key=lambda l: (-l["bytes"], -l["packets"]))
        out.append("")
        out.append("busiest mesh links (of %d)" % len(run.links))
        for l in busy[:5]:
            if l["bytes"] == 0 and l["packets"] == 0:
                break
            out.append("  (%d,%d) -> (%d,%d): %s in %d packets" %
                       (l["from"][0], l["from"][1], l["to"][0], l["to"][1],
                        _size(l["bytes"]), l["packets"]))

    total, by_bytes, by_msgs = comm_totals(run.comm)
    if total is not None:
        out.append("")
        out.append("communication by library")
        for lib in by_bytes:
            out.append("  %-6s %10s in %d messages" %
                       (lib, _size(by_bytes[lib]), by_msgs.get(lib, 0)))
        pairs = sorted(((v, i, j) for i, r in enumerate(total)
                        for j, v in enumerate(r) if v), reverse=True)
        if pairs:
            out.append("  heaviest pairs (UE -> UE):")
            for v, i, j in pairs[:5]:
                out.append("    %d -> %d: %s" % (i, j, _size(v)))

    if run.energy:
        out.append("")
        isl = run.energy.get("per_island_j") or []
        out.append("energy: %.6g J in all (uncore %.6g J); per island: %s" %
                   (run.energy.get("total_j", 0),
                    run.energy.get("uncore_j", 0),
                    ", ".join("%.3g J" % v for v in isl)))

    if run.dvfs:
        out.append("")
        out.append("DVFS changes (%d)" % len(run.dvfs))
        for d in run.dvfs:
            out.append("  " + dvfs_text(d))

    if run.deadlock:
        out.append("")
        out.append("deadlock: see the report's 'deadlock' key")
    return "\n".join(out) + "\n"


def dvfs_text(d):
    if d.get("what") == "volt":
        done = d.get("done_s")
        return ("%.6f s  island %d  voltage -> %d mV (core %d)%s" %
                (d["t_s"], d["island"], d.get("millivolts", 0),
                 d.get("core", -1),
                 ", reached at %.6f s" % done if done is not None
                 else ", not reached before the end"))
    return ("%.6f s  island %d  core %d divider -> %d" %
            (d["t_s"], d["island"], d.get("core", -1), d.get("divider", 0)))
