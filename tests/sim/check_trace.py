#!/usr/bin/env python3
"""Check the sim's Chrome trace (docs/SIM.md, "Trace") of a small RCCE run.

    check_trace.py RCK OUTDIR NUES PROGRAM [ARGS...]

Runs PROGRAM twice on the sim with the deterministic compute model, once
with --trace FILE.json and once with --trace FILE.json.gz, and checks:

* the .gz file is gzip and decompresses to the same bytes as the plain one
  (the run is deterministic), which is valid JSON;
* every RCCE/iRCCE send and receive slice names its peer and its size;
* every flow (an event with "bind_id") has exactly one start ("flow_out")
  and one end ("flow_in"), both on complete events of their own thread,
  the end no earlier than the start; any flow event of the older kind
  ("ph" s/t/f) lies within a complete event of its thread at its time;
* the complete events of every thread nest (no two overlap partly), so
  that Perfetto keeps them all;
* the send and receive slices match the messages the report counts
  (comm.messages.rcce and comm.bytes.rcce, per pair of UEs), and the MPB
  write flows the MPB writes it counts (mpb_bytes_written, per writer and
  target core);
* `rck report RUN.json --trace FILE.json.gz --text` reads the .gz trace.

Needs nothing from the network. Exit status 0 when all hold, 1 otherwise
(each failure named).
"""

import collections
import gzip
import json
import os
import subprocess
import sys

FAILS = []
QUIET = False  # the self-test's expected failures are not printed


def fail(msg):
    FAILS.append(msg)
    if not QUIET:
        print("FAIL: " + msg)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    return p.returncode, p.stdout, p.stderr


def rck_run(rck, outdir, nues, prog, args, trace, report):
    env = dict(os.environ)
    for k in ("RCK_SIM_TRACE", "RCK_REPORT", "RCK_SIM_REPORT", "RCK_MSGLOG"):
        env.pop(k, None)
    cmd = [rck, "run", "-n", str(nues), "--backend", "sim", "--compute",
           "none", "--report", report, "--trace", trace, prog] + args
    rc, out, err = run(cmd, env=env, cwd=outdir)
    if rc != 0:
        print(out + err)
        sys.exit("check_trace: '%s' failed (exit %d)" % (" ".join(cmd), rc))


def nested(slices):
    """The first pair of complete events of one thread that overlap
    partly, or None. slices: [(start, end, name)], whole nanoseconds."""
    stack = []
    # parents first: by start, then the longer one
    for s, e, name in sorted(slices, key=lambda x: (x[0], -x[1])):
        while stack and stack[-1][1] <= s and not (
                stack[-1][0] == stack[-1][1] == s == e):
            stack.pop()
        if stack and e > stack[-1][1]:
            return stack[-1], (s, e, name)
        stack.append((s, e, name))
    return None


def ns(us):
    """Microseconds (as the file writes them) as whole nanoseconds."""
    return int(round(float(us) * 1000))


def within(slices, ts):
    return any(s <= ts <= e for s, e, _ in slices)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rck, outdir, nues, prog = (os.path.abspath(sys.argv[1]),
                               os.path.abspath(sys.argv[2]), sys.argv[3],
                               os.path.abspath(sys.argv[4]))
    args = sys.argv[5:]
    os.makedirs(outdir, exist_ok=True)
    plain = os.path.join(outdir, "t.json")
    gz = os.path.join(outdir, "t.json.gz")
    rep = os.path.join(outdir, "r.json")
    rep_gz = os.path.join(outdir, "r_gz.json")
    for f in (plain, gz):
        if os.path.exists(f):
            os.unlink(f)
    rck_run(rck, outdir, nues, prog, args, plain, rep)
    rck_run(rck, outdir, nues, prog, args, gz, rep_gz)

    # the compressed file
    with open(gz, "rb") as f:
        magic = f.read(2)
    if magic != b"\x1f\x8b":
        fail("%s is not gzip (starts %r)" % (gz, magic))
    with gzip.open(gz, "rb") as f:
        gz_bytes = f.read()
    with open(plain, "rb") as f:
        plain_bytes = f.read()
    if gz_bytes != plain_bytes:
        fail("%s does not decompress to the bytes of %s (%d vs %d bytes)"
             % (gz, plain, len(gz_bytes), len(plain_bytes)))
    doc = json.loads(gz_bytes.decode("utf-8"))
    print("trace: %d bytes, %d compressed, %d events"
          % (len(plain_bytes), os.path.getsize(gz), len(doc["traceEvents"])))
    with open(rep) as f:
        report = json.load(f)
    check_events(doc["traceEvents"], report, nues, verbose=True)

    # rck report reads the compressed trace
    rc, out, err = run([rck, "report", rep_gz, "--trace", gz, "--text"])
    if rc != 0:
        fail("rck report --trace %s failed (exit %d): %s" % (gz, rc,
                                                             err.strip()))
    if FAILS:
        print("%d failures" % len(FAILS))
        return 1

    # the checks can fail: each of these damaged copies must
    for what, damage in DAMAGES:
        events = json.loads(plain_bytes.decode("utf-8"))["traceEvents"]
        if not damage(events):
            fail("self-test: nothing to damage for '%s'" % what)
            continue
        check_events(events, report, nues, verbose=False)
        if not FAILS:
            print("FAIL: self-test: a trace with %s passed" % what)
            return 1
        print("self-test: a trace with %s fails (%s)" % (what, FAILS[0]))
        del FAILS[:]
    print("trace ok")
    return 0


def _first(events, pred):
    for e in events:
        if pred(e):
            return e
    return None


def _drop_bytes(events):
    e = _first(events, lambda e: e.get("name") == "RCCE_send")
    if e is not None:
        del e["args"]["bytes"]
    return e is not None


def _move_flow_end(events):
    e = _first(events, lambda e: e.get("flow_in"))
    if e is not None:
        e["tid"] = e["tid"] + 1
    return e is not None


def _old_flow_outside(events):
    e = _first(events, lambda e: e.get("flow_in"))
    if e is None:
        return False
    # the flow end as it was written before: "f" on its own
    f = {"name": e["name"], "cat": "flow", "ph": "f", "bp": "e", "id": 1,
         "pid": 1, "tid": e["tid"], "ts": -1}
    events.append(f)
    return True


def _overlap(events):
    e = _first(events, lambda e: e.get("name") == "wait" and
               float(e["dur"]) > 0.01)
    if e is None:
        return False
    events.append(dict(e, name="overlapping", ts=float(e["ts"]) + 0.001,
                       dur=float(e["dur"]) + 10))
    return True


def _lose_message(events):
    e = _first(events, lambda e: e.get("name") == "RCCE_recv")
    if e is not None:
        events.remove(e)
    return e is not None


DAMAGES = [("a send slice without its size", _drop_bytes),
           ("a flow end on another thread", _move_flow_end),
           ("a flow end outside every slice", _old_flow_outside),
           ("two slices overlapping partly", _overlap),
           ("a receive slice missing", _lose_message)]


def check_events(events, report, nues, verbose):
    """Every check on the events (see the module's docstring); failures
    go to FAILS."""
    global QUIET
    QUIET = not verbose
    ue_of, core_of = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            name = e["args"]["name"]  # "core N (UE k)"
            ue = int(name.split("UE ")[1].rstrip(")"))
            ue_of[e["tid"]] = ue
            core_of[ue] = e["tid"]
    if len(ue_of) != int(nues):
        fail("%d threads named, %s UEs" % (len(ue_of), nues))

    slices = collections.defaultdict(list)
    flows = collections.defaultdict(lambda: {"out": [], "in": []})
    sends = collections.Counter()
    send_bytes = collections.Counter()
    recvs = collections.Counter()
    recv_bytes = collections.Counter()
    mpb_flows = collections.Counter()
    mpb_flow_bytes = collections.Counter()
    old_flow = []
    for e in events:
        ph = e.get("ph")
        if ph in ("s", "t", "f"):
            old_flow.append(e)
            continue
        if ph != "X":
            continue
        ts, dur = ns(e["ts"]), ns(e["dur"])
        if dur < 0:
            fail("negative duration: %s" % e)
        slices[e["tid"]].append((ts, ts + dur, e["name"]))
        a = e.get("args") or {}
        if "bind_id" in e:
            kind = "out" if e.get("flow_out") else "in" if e.get(
                "flow_in") else None
            if kind is None:
                fail("bind_id without flow_in/flow_out: %s" % e)
            else:
                flows[e["bind_id"]][kind].append(e)
        if e.get("cat") == "call" and (
                e["name"].endswith("send") or e["name"].endswith("recv")):
            if "bytes" not in a or "peer" not in a:
                fail("send/receive slice without peer or size: %s" % e)
                continue
            me = ue_of.get(e["tid"])
            if e["name"] == "RCCE_send":
                sends[(me, a["peer"])] += 1
                send_bytes[(me, a["peer"])] += a["bytes"]
            elif e["name"] == "RCCE_recv":
                recvs[(a["peer"], me)] += 1
                recv_bytes[(a["peer"], me)] += a["bytes"]
        if e["name"] == "MPB write" and e.get("flow_out"):
            mpb_flows[(ue_of.get(e["tid"]), a.get("to"))] += 1
            mpb_flow_bytes[(ue_of.get(e["tid"]), a.get("to"))] += a.get(
                "bytes", 0)

    # flows: one start, one end, both carried by complete events
    for fid, f in flows.items():
        if len(f["out"]) != 1 or len(f["in"]) != 1:
            fail("flow %s: %d starts, %d ends" % (fid, len(f["out"]),
                                                  len(f["in"])))
            continue
        o, i = f["out"][0], f["in"][0]
        if ns(i["ts"]) < ns(o["ts"]):
            fail("flow %s ends (%s) before it starts (%s)" % (fid, i["ts"],
                                                            o["ts"]))
        if (o.get("args") or {}).get("to") != i["tid"]:
            fail("flow %s ends on thread %s, not its target %s"
                 % (fid, i["tid"], (o.get("args") or {}).get("to")))
    for e in old_flow:
        if not within(slices[e["tid"]], ns(e["ts"])):
            fail("flow event outside every slice of thread %s: %s"
                 % (e["tid"], e))
    if not flows:
        fail("no flows in the trace")
    if verbose:
        print("flows: %d, all bound to their own events" % len(flows))

    for tid, sl in slices.items():
        bad = nested(sl)
        if bad is not None:
            fail("thread %s: slices overlap partly: %s and %s"
                 % (tid, bad[0], bad[1]))

    # against the report's counts
    msgs = ((report.get("comm") or {}).get("messages") or {}).get("rcce")
    byts = ((report.get("comm") or {}).get("bytes") or {}).get("rcce")
    if msgs is None or byts is None:
        fail("the report has no comm.messages.rcce / comm.bytes.rcce")
    else:
        n = 0
        for i, row in enumerate(msgs):
            for j, m in enumerate(row):
                n += m
                for what, got, gotb in (("sends", sends, send_bytes),
                                        ("receives", recvs, recv_bytes)):
                    if got[(i, j)] != m or gotb[(i, j)] != byts[i][j]:
                        fail("UE %d -> %d: the report counts %d messages, "
                             "%d bytes; the trace %d %s, %d bytes"
                             % (i, j, m, byts[i][j], got[(i, j)], what,
                                gotb[(i, j)]))
        if n == 0:
            fail("the report counts no RCCE messages")
        if verbose:
            print("RCCE messages: %d, as the report counts them" % n)
    nw = 0
    for w in report.get("mpb_bytes_written", []):
        if w["target"] == core_of.get(w["writer"]):
            continue  # into its own MPB: no flow
        key = (w["writer"], w["target"])
        nw += w["writes"]
        if mpb_flows[key] != w["writes"] or mpb_flow_bytes[key] != w["bytes"]:
            fail("UE %d -> core %d: the report counts %d MPB writes, %d "
                 "bytes; the trace %d flows, %d bytes"
                 % (key[0], key[1], w["writes"], w["bytes"], mpb_flows[key],
                    mpb_flow_bytes[key]))
    if verbose:
        print("MPB writes into other cores' MPBs: %d, as the report counts "
              "them" % nw)


if __name__ == "__main__":
    sys.exit(main())
