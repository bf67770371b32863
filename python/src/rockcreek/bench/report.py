"""Pure functions of the benchmark harness: parsing benchmark output,
aggregating rounds, ratios, target verdicts and text tables.

Nothing here starts a process, reads a clock or touches a file, so all of it
is tested with synthetic data (python/tests/test_rckbench.py).

Output contract of the benchmark programs (bench/bench_common.h):
  * lines starting with '#' are comments, blank lines are ignored;
  * pingpong: ``size=<bytes> reps=<n> lat_us=<one-way us> bw_mbs=<MB/s>``;
  * barrier:  ``ues=<n> reps=<n> us_per_barrier=<us>``.
A launcher's UE prefix (``[ 0] ``, what ``rck run`` prints without
``--no-prefix``) is removed first. Any other line is an error: a benchmark
whose output we cannot read must not silently produce a number.
"""

import math
import re
import statistics

_UE_PREFIX = re.compile(r"^\[\s*\d+\]\s?")

__all__ = [
    "BenchParseError", "PINGPONG_FIELDS", "BARRIER_FIELDS", "parse_kv_line",
    "parse_output", "parse_pingpong_output", "parse_barrier_output",
    "aggregate", "aggregate_rounds", "ratio", "ratios", "Verdict",
    "latency_verdict", "bandwidth_verdict", "format_size", "format_value",
    "format_table", "comparison_table", "parse_cpuinfo_model",
]


class BenchParseError(ValueError):
    """A benchmark printed something that is not in the output contract."""

    def __init__(self, message, line=None, lineno=None, source=None):
        where = []
        if source:
            where.append(str(source))
        if lineno is not None:
            where.append("line %d" % lineno)
        text = message
        if where:
            text = "%s: %s" % (", ".join(where), message)
        if line is not None:
            text = "%s: %r" % (text, line)
        super().__init__(text)
        self.reason = message
        self.line = line
        self.lineno = lineno
        self.source = source


# Field name -> converter, in the order the programs print them.
PINGPONG_FIELDS = {"size": int, "reps": int, "lat_us": float, "bw_mbs": float}
BARRIER_FIELDS = {"ues": int, "reps": int, "us_per_barrier": float}


def _convert(name, conv, text):
    try:
        value = conv(text)
    except ValueError:
        raise BenchParseError("field %s=%r is not a valid %s"
                              % (name, text, conv.__name__)) from None
    if conv is float and not math.isfinite(value):
        raise BenchParseError("field %s=%r is not finite" % (name, text))
    if value < 0:
        raise BenchParseError("field %s=%r is negative" % (name, text))
    return value


def parse_kv_line(line, fields):
    """Parses one ``key=value key=value`` line.

    [in] line: the text, without or with its newline.
    [in] fields: dict name -> converter (int or float); every name is
         required, and no other name is allowed.
    Returns a dict name -> converted value. Raises BenchParseError.
    """
    tokens = line.split()
    if not tokens:
        raise BenchParseError("empty result line", line)
    out = {}
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep or not key or not value:
            raise BenchParseError("token %r is not key=value" % tok, line)
        if key not in fields:
            raise BenchParseError("unknown field %r (expected %s)"
                                  % (key, ", ".join(fields)), line)
        if key in out:
            raise BenchParseError("field %r given twice" % key, line)
        try:
            out[key] = _convert(key, fields[key], value)
        except BenchParseError as e:
            raise BenchParseError(e.reason, line) from None
    missing = [k for k in fields if k not in out]
    if missing:
        raise BenchParseError("missing field(s) %s" % ", ".join(missing), line)
    return out


def parse_output(text, fields, source=None):
    """Parses a benchmark's whole stdout into a list of result dicts
    (comments and blank lines skipped). Raises BenchParseError, naming the
    source and line number, on the first malformed line."""
    results = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _UE_PREFIX.sub("", raw.strip(), count=1).strip()
        if not line or line.startswith("#"):
            continue
        try:
            results.append(parse_kv_line(line, fields))
        except BenchParseError as e:
            raise BenchParseError(e.reason, line, lineno, source) from None
    return results


def parse_pingpong_output(text, source=None):
    """Pingpong lines -> list of {size, reps, lat_us, bw_mbs}, in size
    order. Raises BenchParseError if a line is malformed, a size repeats or
    there is no result at all."""
    results = parse_output(text, PINGPONG_FIELDS, source)
    if not results:
        raise BenchParseError("no pingpong result lines", source=source)
    seen = set()
    for r in results:
        if r["size"] in seen:
            raise BenchParseError("size %d reported twice" % r["size"],
                                  source=source)
        seen.add(r["size"])
    return sorted(results, key=lambda r: r["size"])


def parse_barrier_output(text, source=None):
    """Barrier output -> the one {ues, reps, us_per_barrier} dict. Raises
    BenchParseError unless there is exactly one result line."""
    results = parse_output(text, BARRIER_FIELDS, source)
    if len(results) != 1:
        raise BenchParseError("expected exactly one barrier result line, "
                              "got %d" % len(results), source=source)
    return results[0]


def aggregate(values):
    """{median, min, max, q1, q3, n} of a non-empty sequence of numbers
    (q1/q3: the quartiles, inclusive method; equal to the value for one)."""
    values = list(values)
    if not values:
        raise ValueError("aggregate() of no values")
    if len(values) > 1:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    else:
        q1 = q3 = values[0]
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "q1": q1, "q3": q3, "n": len(values)}


def aggregate_rounds(rounds, key, metric):
    """Aggregates one metric over rounds.

    [in] rounds: list (one per round) of lists of result dicts.
    [in] key: the field that identifies a point (e.g. "size").
    [in] metric: the field to aggregate (e.g. "lat_us").
    Returns {key value: aggregate(...)} for every key value seen in any
    round, sorted by key value.
    """
    by_key = {}
    for results in rounds:
        for r in results:
            by_key.setdefault(r[key], []).append(r[metric])
    return {k: aggregate(by_key[k]) for k in sorted(by_key)}


def ratio(ours, theirs):
    """ours / theirs, or None if either is missing or theirs is zero."""
    if ours is None or theirs is None or theirs == 0:
        return None
    return ours / theirs


def result_row(suite, metric, unit, point, lower_is_better, ours_name, ours,
               ref_name="", ref=None, note=""):
    """One row of results.csv: @p ours and @p ref are aggregate() dicts
    (ref may be None: no reference for this point)."""
    return {
        "suite": suite, "metric": metric, "unit": unit, "point": point,
        "lower_is_better": 1 if lower_is_better else 0, "ours": ours_name,
        "ours_median": ours["median"], "ours_min": ours["min"],
        "ours_max": ours["max"], "ours_n": ours["n"],
        "ref": ref_name if ref else "",
        "ref_median": ref["median"] if ref else None,
        "ratio_median": ratio(ours["median"], ref["median"]) if ref else None,
        "status": "", "note": note}


def ratios(ours, theirs, stat="median"):
    """Per-point ratio of one statistic of two aggregate_rounds() results,
    for the points both have."""
    return {k: ratio(ours[k][stat], theirs[k][stat])
            for k in ours if k in theirs}


class Verdict:
    """The outcome of one performance target: status is "MET", "NOT MET" or
    "NOT EVALUATED"; detail gives the numbers behind it."""

    def __init__(self, target, status, detail, points=None):
        self.target = target
        self.status = status
        self.detail = detail
        self.points = points or []

    def __str__(self):
        return "target: %s: %s (%s)" % (self.target, self.status, self.detail)

    def as_dict(self):
        return {"target": self.target, "status": self.status,
                "detail": self.detail, "points": self.points}


def _points(ours, theirs, keep):
    pts = []
    for size in sorted(set(ours) & set(theirs)):
        if keep(size):
            o = ours[size]["median"]
            t = theirs[size]["median"]
            pts.append({"size": size, "ours": o, "theirs": t,
                        "ratio": ratio(o, t)})
    return pts


def latency_verdict(ours, theirs, max_size=1024, theirs_name="Open MPI",
                    limit=1.0):
    """Target: our median one-way latency <= limit x theirs for every size
    up to max_size. ours/theirs: aggregate_rounds(..., "lat_us")."""
    target = "latency <= %s%s for sizes <= %s" % (
        "" if limit == 1.0 else "%gx " % limit, theirs_name,
        format_size(max_size))
    if not ours or not theirs:
        return Verdict(target, "NOT EVALUATED",
                       "no %s results" % ("rockcreek" if not ours
                                          else theirs_name))
    pts = _points(ours, theirs, lambda s: s <= max_size)
    if not pts:
        return Verdict(target, "NOT EVALUATED", "no sizes <= %s measured"
                       % format_size(max_size))
    bad = [p for p in pts if p["ours"] > limit * p["theirs"]]
    worst = max(pts, key=lambda p: p["ours"] / p["theirs"]
                if p["theirs"] else math.inf)
    detail = ("%d/%d sizes %s; worst %s: %s us vs %s us, ratio %s"
              % (len(bad), len(pts),
                 "slower" if limit == 1.0 else "beyond the limit",
                 format_size(worst["size"]),
                 format_value(worst["ours"]), format_value(worst["theirs"]),
                 format_value(worst["ratio"])))
    return Verdict(target, "NOT MET" if bad else "MET", detail, pts)


def bandwidth_verdict(ours, theirs, min_size=65536, fraction=0.8,
                      theirs_name="Open MPI"):
    """Target: our median bandwidth >= fraction x theirs for every size from
    min_size up. ours/theirs: aggregate_rounds(..., "bw_mbs")."""
    target = "bandwidth >= %d%% of %s from %s up" % (
        round(fraction * 100), theirs_name, format_size(min_size))
    if not ours or not theirs:
        return Verdict(target, "NOT EVALUATED",
                       "no %s results" % ("rockcreek" if not ours
                                          else theirs_name))
    pts = _points(ours, theirs, lambda s: s >= min_size)
    if not pts:
        return Verdict(target, "NOT EVALUATED", "no sizes >= %s measured"
                       % format_size(min_size))
    bad = [p for p in pts if p["ours"] < fraction * p["theirs"]]
    worst = min(pts, key=lambda p: p["ratio"] if p["ratio"] is not None
                else math.inf)
    detail = ("%d/%d sizes below; worst %s: %s MB/s vs %s MB/s, ratio %s"
              % (len(bad), len(pts), format_size(worst["size"]),
                 format_value(worst["ours"]), format_value(worst["theirs"]),
                 format_value(worst["ratio"])))
    return Verdict(target, "NOT MET" if bad else "MET", detail, pts)


def format_size(n):
    """Bytes as a short binary-unit string: 0 B, 512 B, 1 KiB, 4 MiB."""
    n = int(n)
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= (1 << shift) and n % (1 << shift) == 0:
            return "%d %s" % (n >> shift, unit)
    if n >= 1024:
        return "%.1f KiB" % (n / 1024.0)
    return "%d B" % n


def format_value(v):
    """A number with about 3-4 significant digits; '-' for None."""
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v)
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3f" % v


def format_table(headers, rows, align=None):
    """A plain-text table. headers: list of str (a header may contain '\\n'
    for two lines); rows: lists of str; align: per column '<' or '>'
    (default: first column left, the rest right)."""
    ncol = len(headers)
    for r in rows:
        if len(r) != ncol:
            raise ValueError("row has %d cells, table has %d columns"
                             % (len(r), ncol))
    if align is None:
        align = ["<"] + [">"] * (ncol - 1)
    head_lines = [h.split("\n") for h in headers]
    depth = max(len(h) for h in head_lines)
    head_lines = [[""] * (depth - len(h)) + h for h in head_lines]
    widths = [max([len(x) for x in head_lines[c]] +
                  [len(r[c]) for r in rows]) for c in range(ncol)]

    def line(cells):
        return "  ".join(("{:%s%d}" % (align[c], widths[c])).format(cells[c])
                         for c in range(ncol)).rstrip()

    out = [line([head_lines[c][i] for c in range(ncol)])
           for i in range(depth)]
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in rows)
    return "\n".join(out)


def comparison_table(title, ours, theirs, unit, lower_is_better,
                     key_format=format_size, key_header="size",
                     ours_name="rockcreek", theirs_name="Open MPI"):
    """The side-by-side table of one metric: per point, our median/min/max,
    theirs, and the ratios ours/theirs of the medians and of the best
    rounds (min for lower-is-better metrics, max otherwise).

    [in] ours, theirs: aggregate_rounds() results (theirs may be empty).
    Returns the table as a string, title first."""
    best = "min" if lower_is_better else "max"
    better = "lower" if lower_is_better else "higher"
    headers = [key_header,
               "%s\nmedian" % ours_name, "%s\nmin" % ours_name,
               "%s\nmax" % ours_name,
               "%s\nmedian" % theirs_name, "%s\nmin" % theirs_name,
               "%s\nmax" % theirs_name,
               "ratio\nmedian", "ratio\n%s" % best]
    rows = []
    for k in sorted(set(ours) | set(theirs)):
        o = ours.get(k)
        t = theirs.get(k)
        rows.append([
            key_format(k),
            format_value(o["median"] if o else None),
            format_value(o["min"] if o else None),
            format_value(o["max"] if o else None),
            format_value(t["median"] if t else None),
            format_value(t["min"] if t else None),
            format_value(t["max"] if t else None),
            format_value(ratio(o["median"], t["median"]) if o and t
                         else None),
            format_value(ratio(o[best], t[best]) if o and t else None),
        ])
    n_o = max((v["n"] for v in ours.values()), default=0)
    n_t = max((v["n"] for v in theirs.values()), default=0)
    head = ("%s [%s; %s is better; ratio = %s / %s; rounds: %s %d, %s %d]"
            % (title, unit, better, ours_name, theirs_name, ours_name, n_o,
               theirs_name, n_t))
    return head + "\n" + format_table(headers, rows)


def parse_cpuinfo_model(text):
    """The CPU model name from /proc/cpuinfo text, or None."""
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("model name", "Processor", "cpu model"):
            return value.strip()
    return None
