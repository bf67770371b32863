"""`rck report --text`: the run in plain text."""

from .load import CATEGORIES, comm_totals


def _size(b):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= k:
            return "%.1f %s" % (b / k, unit)
    return "%d B" % b


def _pct(part, whole):
    return 100.0 * part / whole if whole else 0.0


def ordinal(n):
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th..."""
    n = int(n)
    if n % 100 in (11, 12, 13):
        return "%dth" % n
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


# One unit for every time axis of a page, chosen from the run's length.
TIME_UNITS = (("us", 1e6), ("ms", 1e3), ("s", 1.0))


def time_unit(seconds):
    """(unit name, factor from seconds) for a run of @p seconds: us below
    1 ms, ms below 1 s, else s (unknown length: ms)."""
    if seconds is None or seconds <= 0:
        return TIME_UNITS[1]
    if seconds < 1e-3:
        return TIME_UNITS[0]
    if seconds < 1.0:
        return TIME_UNITS[1]
    return TIME_UNITS[2]


def run_seconds(run):
    """The run's length in seconds: the report's time, else the end of
    the trace's last event."""
    if run.seconds:
        return run.seconds
    tr = getattr(run, "trace", None)
    if tr and tr["lanes"]:
        return max(s + d for evs in tr["lanes"].values()
                   for (s, d, _, _) in evs) * 1e-6
    return None


def _cycle_time(run, cycle):
    """A cycle count as ' (T unit)' at the core clock, '' without one."""
    if not run.core_mhz or cycle is None:
        return ""
    name, f = time_unit(run_seconds(run))
    return " (%.6g %s)" % (cycle / (run.core_mhz * 1e6) * f, name)


def _word_text(w):
    where = ("shared memory" if w.get("space") == "shm" else
             "%s of core %s" % (w.get("space", "?").upper(), w.get("core")))
    return ("%s offset %s: waits until (word & %#x) %s %s, is %s" %
            (where, w.get("offset"), w.get("mask", 0), w.get("op", "?"),
             w.get("value"), w.get("now")))


def ending(run):
    """How an abnormal run ended, or None for a normal one: {"title",
    "lines": [str], "header": [...], "rows": [[...]]} (the rows name each
    waiting or failed core: its call, peer and since when)."""
    ended = run.ended
    dl = run.deadlock if isinstance(run.deadlock, dict) else None
    bad = [c for c in (run.cores or [])
           if c.get("end") not in (None, "exited", "detached", "dormant")]
    if (ended in (None, "ok")) and not dl and not bad:
        return None
    out = {"title": "The run ended: %s" % (ended or "?"), "lines": [],
           "header": None, "rows": []}
    if ended == "deadlock" or dl:
        waits = (dl or {}).get("waits") or []
        cyc = (dl or {}).get("cycle")
        out["title"] = "The run deadlocked"
        out["lines"].append(
            "deadlock found at cycle %s%s: %d core%s waiting, none of them "
            "able to go on" % (cyc if cyc is not None else "?",
                               _cycle_time(run, cyc), len(waits),
                               "" if len(waits) == 1 else "s"))
        out["header"] = ["UE", "core", "call", "peer", "waiting since",
                         "for"]
        for w in waits:
            since = w.get("since_cycle")
            what = "; ".join(_word_text(x) for x in w.get("words") or [])
            if w.get("interrupt"):
                what = (what + "; " if what else "") + "an interrupt"
            out["rows"].append([
                w.get("ue", "?"), w.get("core", "?"), w.get("call") or "?",
                w.get("peer") if w.get("peer", -1) >= 0 else "none",
                "cycle %s%s" % (since, _cycle_time(run, since)),
                what or "?"])
        if not waits:
            out["lines"].append("the report lists no waiting core")
    else:
        if ended == "peer_died":
            out["title"] = "A core died: the run was ended"
            out["lines"].append(
                "a core failed or was killed; the cores still waiting for "
                "it were stopped (peer_died)")
        elif ended in (None, "ok"):
            out["title"] = "Not every core exited normally"
        else:
            out["lines"].append("the report says the run ended '%s'" % ended)
    rest = [c for c in bad if c.get("end") != "deadlock" or not dl]
    if rest:
        out["lines"].append("cores that did not exit normally: " + ", ".join(
            "UE %s (core %s) %s at cycle %s%s" % (
                c.get("ue"), c.get("core"), c.get("end"), c.get("cycles"),
                _cycle_time(run, c.get("cycles"))) for c in rest))
    return out


def ending_text(run):
    """The --text block for an abnormal ending ([] for a normal run)."""
    e = ending(run)
    if e is None:
        return []
    out = [e["title"].upper()] + ["  " + l for l in e["lines"]]
    for r in e["rows"]:
        out.append("  UE %s (core %s) in %s, peer %s, waiting since %s" %
                   tuple(r[:5]))
        out.append("    for: %s" % r[5])
    return out


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
    end = ending_text(run)
    if end:
        out += end + [""]
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
