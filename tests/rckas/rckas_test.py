#!/usr/bin/env python3
"""Tests of rck-as, the compiled counters' assembler (docs/P54C-COUNTERS.md).

  rckas_test.py CASE --asdir DIR --src DIR --simdir DIR --rckcc PATH --tmp DIR

CASE is one of:
  correct      flags.c built plain and through rck-as at -O0 -O2 -O3 -Os,
               -O2 -g and -O2 -fPIC -fcf-protection (TLS, endbr64), and
               except.cpp (C++) at -O0 -O2: identical output; the
               instrumented builds count, the plain ones do not, -g does not
               change the counts; all three insertion kinds occur
  counts       loop.c: the instructions added are exactly linear in N, one
               iteration adds the loop body's instructions from objdump -d
               of the uninstrumented object and its CPI-table cycles
  placement    synthetic.s (GCC-like, by hand): where the adds go in each
               function (its EXPECT lines): flags live across blocks and
               sections, full writers, shifts, unknown instructions, calls,
               inline asm, endbr64, rep strings
  memcorrect   flags.c and except.cpp built through rckcc -rck-mem (every
               load, store and block fetch checked inline, slow paths in
               librockcreek) at -O0 -O2 -O3 -Os and -O2 -fPIC
               -fcf-protection: the same output as the plain builds; the
               objects carry the memory flag in their records
  passthrough  a hand-written .s is assembled byte-identically; the
               .rck_icount record is present only in instrumented objects
               and holds the magic and the CPI table; a bad RCK_AS fails
               with a clear message; an error in the input shows the real
               assembler's message once
  shadow       with memory checks, each object's shadow of the unchecked
               code has its unchecked sections' sizes (flags.c, except.cpp);
               linked by rckcc -rck-mem, every function of flags.c lies in
               the shadow (the fetch map's addresses) where the unchecked
               program has it, modulo 256 KiB; two C++ objects sharing
               inline functions link and run
  layout       a program built by rckcc -rck-mem carries one note of the
               counters' page layout (P54C_LAYOUT_VERSION of p54c_abi.h)
               and runs; the same program linked with an object whose note
               names another version (forged by hand: version 999) stops
               before its code runs, exit 127, with a message naming both
               versions
  rckcc        rckcc -show has -B<asdir>/ with RCKCC_COUNT=1 or -rck-count;
               RCKCC_COUNT=0, -rck-nocount, -E and clang drop it; a counted
               program calling nothing in librockcreek still runs (the
               library, which maps the counters' page, is linked although
               gcc links --as-needed)
Needs gcc, objdump and readelf; no QEMU.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

A = None


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, env=None, check=True):
    e = dict(os.environ)
    if env:
        e.update(env)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=e)
    if check and r.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), r.returncode, r.stdout,
                                    r.stderr))
    return r


def tmp(name):
    return os.path.join(A.tmp, name)


def cc(flags, src, out, count, extra=(), compiler="gcc"):
    cmd = [compiler] + flags + (["-B" + A.asdir + "/"] if count else [])
    cmd += ["-I" + A.incdir, src, "-o", out] + list(extra)
    return run(cmd, env={"RCK_AS_STATS": "1"})


def ctr_obj():
    o = tmp("ctr_map.o")
    if not os.path.exists(o):
        cc(["-O2", "-c"], os.path.join(A.src, "ctr_map.c"), o, False)
    return o


def test_builds(c_opts):
    """(source, compiler, options): flags.c by gcc at each of @p c_opts,
    except.cpp by g++ at -O0 and -O2 (when there is a g++)."""
    builds = [(os.path.join(A.src, "flags.c"), "gcc", o) for o in c_opts]
    if shutil.which("g++"):
        builds += [(os.path.join(A.src, "except.cpp"), "g++", o)
                   for o in (["-O0"], ["-O2"])]
    return builds


def case_correct():
    stats = {"pushfq": 0, "writer": 0, "rep": 0}
    counted = {}
    builds = test_builds((["-O0"], ["-O2"], ["-O3"], ["-Os"], ["-O2", "-g"],
                          ["-O2", "-fPIC", "-fcf-protection"]))
    for src, comp, opt in builds:
        tag = comp + "".join(opt)
        plain, inst = tmp("flags_p" + tag), tmp("flags_i" + tag)
        cc(opt, src, plain, False, [ctr_obj()], comp)
        r = cc(opt, src, inst, True, [ctr_obj()], comp)
        m = re.search(r"(\d+) at a flag writer\), (\d+) with pushfq, "
                      r"(\d+) rep strings", r.stderr)
        if not m:
            fail("no RCK_AS_STATS line from rck-as at %s: %s" % (tag, r.stderr))
        stats["writer"] += int(m.group(1))
        stats["pushfq"] += int(m.group(2))
        stats["rep"] += int(m.group(3))
        p, i = run([plain]), run([inst])
        if p.stdout != i.stdout:
            fail("%s: outputs differ\nplain:\n%s\ninstrumented:\n%s"
                 % (tag, p.stdout, i.stdout))
        cp = re.search(r"counters (\d+) (\d+)", p.stderr)
        ci = re.search(r"counters (\d+) (\d+)", i.stderr)
        if not cp or cp.group(1) != "0" or cp.group(2) != "0":
            fail("%s: the plain build counted: %s" % (tag, p.stderr))
        if not ci or int(ci.group(1)) < 10000 or int(ci.group(2)) <= 0:
            fail("%s: the instrumented build did not count: %s"
                 % (tag, i.stderr))
        counted[tag] = ci.groups()
        print("%-12s same output (%d lines), counted %s instructions"
              % (tag, p.stdout.count("\n"), ci.group(1)))
    if counted["gcc-O2"] != counted["gcc-O2-g"]:
        fail("-g changed the counts: %s vs %s" % (counted["gcc-O2"],
                                                  counted["gcc-O2-g"]))
    for k, v in stats.items():
        if v == 0:
            fail("no %s insertion in any build: the test no longer covers it"
                 % k)
    print("insertions: %s" % stats)


def cpi_units():
    """Units per class from p54c_cpi.h (the CPI table), by class key."""
    text = open(os.path.join(A.simdir, "p54c_cpi.h")).read()
    consts = dict(re.findall(r"#define (P54C_CPI_\w+) ([0-9.]+)", text))
    units = {}
    for key, cpi in re.findall(r'\{"(\w+)",\s*([0-9.]+|P54C_CPI_\w+)\}',
                               text):
        units[key] = int(float(consts.get(cpi, cpi)) * 16 + 0.5)
    if len(units) != 11:
        fail("cannot read the CPI table: %s" % units)
    return units


def body_class(mn, ops):
    """The P54C class of a loop-body instruction (objdump AT&T syntax),
    by the rules of docs/P54C.md; None for one this test does not know."""
    known = ("mov", "movabs", "movzbl", "movslq", "add", "sub", "xor", "and",
             "or", "cmp", "test", "shr", "shl", "sar", "sal", "lea", "neg",
             "not", "inc", "dec", "nop", "cltq", "cqto", "imul", "mul", "div",
             "idiv")
    base = mn
    if mn not in known and mn[-1:] in ("b", "w", "l", "q") and \
            mn[:-1] in known:
        base = mn[:-1]
    if mn.startswith("j") or mn.startswith("call") or mn.startswith("ret"):
        return "branch"
    if base in ("imul", "mul"):
        return "mul"
    if base in ("div", "idiv"):
        return "div"
    if base not in known:
        return None
    if "(" in ops and base not in ("lea", "nop"):
        return "mem"
    return "int"


def loop_body(obj):
    """The instructions of the one backward jump's loop in @obj."""
    out = run(["objdump", "-d", "--no-show-raw-insn", obj]).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    back = [(a, t) for a, mn, ops in insns if mn.startswith("j")
            for t in [int(ops.split()[0], 16)] if t < a]
    if len(back) != 1:
        fail("expected one backward jump in %s, found %s" % (obj, back))
    a, t = back[0]
    return [(mn, ops) for addr, mn, ops in insns if t <= addr <= a]


def case_counts():
    units = cpi_units()
    loop_c = os.path.join(A.src, "loop.c")
    main_o = tmp("count_main.o")
    cc(["-O2", "-c"], os.path.join(A.src, "count_main.c"), main_o, False)
    for opt in ("-O0", "-O2"):
        plain_o, inst_o = tmp("loop_p%s.o" % opt), tmp("loop_i%s.o" % opt)
        cc([opt, "-c"], loop_c, plain_o, False)
        cc([opt, "-c"], loop_c, inst_o, True)
        body = loop_body(plain_o)
        want_units = 0
        for mn, ops in body:
            c = body_class(mn, ops)
            if c is None:
                fail("%s: loop body instruction %s %s: not known to the test"
                     % (opt, mn, ops))
            want_units += units[c]
        exe = tmp("count" + opt)
        run(["gcc", main_o, inst_o, ctr_obj(), "-o", exe])
        ns = [0, 1, 1000, 2000, 7000]
        rows = [tuple(int(x) for x in l.split())
                for l in run([exe] + [str(n) for n in ns]).stdout.split("\n")
                if l.strip()]
        # N = 0 skips the loop's set-up: linear from N = 1 on
        n0, i0, u0 = rows[1]
        for n, i, u in rows[2:]:
            n -= n0
            if i - i0 != n * len(body):
                fail("%s: N=%d: %d instructions more than N=0, want %d x %d "
                     "(objdump: %s)" % (opt, n, i - i0, n, len(body), body))
            if u - u0 != n * want_units:
                fail("%s: N=%d: %d units more than N=0, want %d x %d"
                     % (opt, n, u - u0, n, want_units))
        print("%s: %d instructions and %d units (%.2f cycles) per iteration, "
              "%d + (N-1) x %d instructions for N in %s (N=0: %d)"
              % (opt, len(body), want_units, want_units / 16.0, i0,
                 len(body), ns[1:], rows[0][1]))


def section_bytes(obj, name):
    r = run(["readelf", "-x", name, obj], check=False)
    if "was not dumped" in r.stderr or r.returncode != 0 or \
            "Hex dump" not in r.stdout:
        return None
    data = b""
    for line in r.stdout.splitlines():
        m = re.match(r"\s+0x[0-9a-f]+ ((?:[0-9a-f]{2,8} ){1,4})", line + " ")
        if m:
            data += bytes.fromhex(m.group(1).replace(" ", ""))
    return data


HAND_S = """\t.text
\t.globl\thand
\t.type\thand, @function
hand:
\txorl\t%eax, %eax
1:\taddl\t$3, %eax
\tcmpl\t$30, %eax
\tjb\t1b
\trep; movsb
\tret
\t.size\thand, .-hand
\t.section\t.note.GNU-stack,"",@progbits
"""


def abbreviate(insns):
    """objdump mnemonics with the counters' sequences as ADD (1), PADD (2)
    and REPADD (3)."""
    out, i = [], 0
    while i < len(insns):
        mn, ops = insns[i]
        nxt = [m for m, _ in insns[i + 1:i + 4]]
        if mn == "lea" and ops.startswith("-0x80(%rsp)") and nxt[:2] == \
                ["pushf", "push"]:
            out.append("REPADD")
            i += 9
        elif mn == "lea" and ops.startswith("-0x80(%rsp)") and nxt[:2] == \
                ["pushf", "addq"]:
            out.append("PADD")
            i += 6
        elif mn == "addq" and ops.endswith(",0x100040"):
            out.append("ADD")
            i += 2
        elif mn in ("rep", "repz", "repnz"):
            out.append(mn + "-" + ops.split()[0])
            i += 1
        else:
            out.append(mn)
            i += 1
    return out


def case_placement():
    s = os.path.join(A.src, "synthetic.s")
    o = tmp("synthetic.o")
    run([os.path.join(A.asdir, "as"), "--64", "-o", o, s])
    funcs, cur = {}, None
    for line in run(["objdump", "-d", "--no-show-raw-insn", o]).stdout \
            .splitlines():
        m = re.match(r"[0-9a-f]+ <(\S+)>:", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+[0-9a-f]+:\s+(\S+)\s*(.*)$", line)
        if m and cur is not None:
            cur.append((m.group(1), m.group(2)))
    expect = re.findall(r"^# EXPECT (\S+): (.*)$", open(s).read(), re.M)
    if len(expect) < 6:
        fail("synthetic.s: too few EXPECT lines")
    for name, want in expect:
        got = " ".join(abbreviate(funcs.get(name, [])))
        if got != want:
            fail("%s:\n  want %s\n  got  %s" % (name, want, got))
        print("%-14s %s" % (name, got))


def case_passthrough():
    s = tmp("hand.s")
    with open(s, "w") as f:
        f.write(HAND_S)
    real_o, ours_o = tmp("hand_real.o"), tmp("hand_ours.o")
    run(["as", "--64", "-o", real_o, s])
    run([os.path.join(A.asdir, "as"), "--64", "-o", ours_o, s])
    if open(real_o, "rb").read() != open(ours_o, "rb").read():
        fail("hand-written assembly: rck-as's object differs from as's")
    # the same through standard input (gcc -pipe)
    pipe_o = tmp("hand_pipe.o")
    with open(s) as f:
        r = subprocess.run([os.path.join(A.asdir, "as"), "--64", "-o",
                            pipe_o], stdin=f)
    if r.returncode != 0 or section_bytes(pipe_o, ".rck_icount") is not None:
        fail("hand-written assembly on stdin")
    if section_bytes(ours_o, ".rck_icount") is not None:
        fail("hand-written assembly got a .rck_icount record")
    print("hand-written .s: byte-identical to as, no record")
    c = os.path.join(A.src, "loop.c")
    inst_o, plain_o, pipe_i = tmp("pt_i.o"), tmp("pt_p.o"), tmp("pt_pipe.o")
    cc(["-O2", "-c"], c, inst_o, True)
    cc(["-O2", "-c"], c, plain_o, False)
    cc(["-O2", "-c", "-pipe"], c, pipe_i, True)
    if section_bytes(plain_o, ".rck_icount") is not None:
        fail("a plain object has a .rck_icount record")
    units = cpi_units()
    keys = ["int", "mem", "branch", "mul", "div", "fadd", "fmul", "fdiv",
            "fsqrt", "string", "other"]
    for o in (inst_o, pipe_i):
        rec = section_bytes(o, ".rck_icount")
        if rec is None or len(rec) != 64:
            fail("%s: no 64-byte .rck_icount record: %r" % (o, rec))
        magic, = struct.unpack_from("<Q", rec, 0)
        vals = struct.unpack_from("<11I", rec, 8)
        if magic != 0x31544e43494b4352 or list(vals) != [units[k] for k in keys] \
                or rec[52:] != bytes(12):
            fail("%s: bad record %s" % (o, rec.hex()))
    print("instrumented objects (also -pipe) carry the record: units %s"
          % dict(zip(keys, vals)))
    # the record survives a link that drops unreferenced sections
    gc_o, gc_x = tmp("gc.o"), tmp("gc")
    cc(["-O2", "-c", "-ffunction-sections"], c, gc_o, True)
    r = run(["gcc", "-Wl,--gc-sections", "-nostartfiles", "-e", "0",
             gc_o, "-o", gc_x], check=False)
    if r.returncode != 0 or section_bytes(gc_x, ".rck_icount") is None:
        fail("-Wl,--gc-sections dropped the .rck_icount record (exit %d: %s)"
             % (r.returncode, r.stderr[-300:]))
    print("the record survives -Wl,--gc-sections")
    for bad, want in (("/nonexistent/as", "RCK_AS=/nonexistent/as: not an "
                       "executable file"),
                      (os.path.join(A.asdir, "as"), "is rck-as itself")):
        r = run(["gcc", "-O2", "-B" + A.asdir + "/", "-c", c, "-o",
                 tmp("bad.o")], env={"RCK_AS": bad}, check=False)
        if r.returncode == 0 or want not in r.stderr:
            fail("RCK_AS=%s: exit %d, stderr %r" % (bad, r.returncode,
                                                    r.stderr))
    print("a bad RCK_AS stops the build with a clear message")
    bad = tmp("bad_asm.c")
    with open(bad, "w") as f:
        f.write('int f(void) { __asm__("bogus_insn %eax"); return 0; }\n')
    r = run(["gcc", "-O2", "-B" + A.asdir + "/", "-c", bad, "-o",
             tmp("bad_asm.o")], check=False)
    if r.returncode == 0 or "no such instruction: `bogus_insn" not in \
            r.stderr or r.stderr.count("bogus_insn") != 1 or \
            "rck-as" in r.stderr:
        fail("an assembler error in the input: exit %d, stderr %r"
             % (r.returncode, r.stderr))
    print("an error in the input: the real assembler's message, once")


def case_rckcc():
    def show(args, env=None):
        return run(["/bin/sh", A.rckcc, "-show"] + args, env=env).stdout
    b = "-B" + A.asdir + "/"
    on = {"RCKCC_COUNT": "1"}
    for args, env in ((["-c", "x.c"], on), (["x.c", "-o", "x"], on),
                      (["-rck-count", "-c", "x.c"], {"RCKCC_COUNT": ""})):
        if b not in show(args, env).split():
            fail("rckcc -show %s (env %s) has no %s" % (args, env, b))
    for args, env in ((["-c", "x.c"], {"RCKCC_COUNT": "0"}),
                      (["-rck-count", "-rck-nocount", "-c", "x.c"], None),
                      (["-E", "x.c"], on), (["-c", "x.c"], {"CC": "clang", "RCKCC_COUNT": "1"})):
        out = show(args, env)
        if "-B" in out or "-rck-nocount" in out:
            fail("rckcc -show %s (env %s) still counts: %s" % (args, env, out))
    # a counted program that calls nothing in librockcreek still gets the
    # library (and its counters' page) despite gcc's default --as-needed
    plain_c, exe = tmp("plain.c"), tmp("plain")
    with open(plain_c, "w") as f:
        f.write('#include <stdio.h>\nint main(void) { puts("plain ok"); '
                'return 0; }\n')
    run(["/bin/sh", A.rckcc, "-rck-count", "-O2", plain_c, "-o", exe])
    r = run([exe], check=False)
    if r.returncode != 0 or r.stdout != "plain ok\n":
        fail("a counted program without rockcreek calls: exit %d, %r %r"
             % (r.returncode, r.stdout, r.stderr))
    if "-rck-nocount" not in run(["/bin/sh", A.rckcc, "--help"]).stdout:
        fail("rckcc --help does not document -rck-nocount")
    print("rckcc: -B with RCKCC_COUNT=1 and -rck-count, none with "
          "RCKCC_COUNT=0, -rck-nocount, -E, clang; a counted program that "
          "calls nothing in the library runs")


def case_memcorrect():
    builds = test_builds((["-O0"], ["-O2"], ["-O3"], ["-Os"],
                          ["-O2", "-fPIC", "-fcf-protection"]))
    for src, comp, opt in builds:
        tag = comp + "".join(opt)
        plain, inst = tmp("mem_p" + tag), tmp("mem_i" + tag)
        cc(opt, src, plain, False, [ctr_obj()], comp)
        env = {"CC": comp, "RCK_AS_STATS": "1"}
        r = run([A.rckcc, "-rck-mem"] + opt +
                ["-I" + A.incdir, src, ctr_obj(), "-o", inst], env=env)
        p, i = run([plain]), run([inst])
        if p.stdout != i.stdout:
            fail("%s: outputs differ with memory checks\nplain:\n%s\n"
                 "checked:\n%s" % (tag, p.stdout, i.stdout))
        rec = section_bytes(inst, ".rck_icount")
        own = [rec[k:k + 64] for k in range(0, len(rec), 64)
               if rec[k:k + 8] == b"RCKICNT1"]
        if not own or any(struct.unpack_from("<I", x, 52)[0] & 1 == 0
                          for x in own):
            fail("%s: the records do not carry the memory flag" % tag)
        print("%-14s same output (%d lines) with memory checks"
              % (tag, p.stdout.count("\n")))


def layout_version():
    with open(os.path.join(A.simdir, "p54c_abi.h")) as f:
        m = re.search(r"#define P54C_LAYOUT_VERSION (\d+)u", f.read())
    if not m:
        fail("p54c_abi.h has no P54C_LAYOUT_VERSION")
    return int(m.group(1))


def layout_notes(exe):
    """The versions in @p exe's RCKP54C notes (readelf -n)."""
    out = run(["readelf", "-nW", exe]).stdout
    vers = []
    lines = out.splitlines()
    for k, line in enumerate(lines):
        if line.split()[:1] == ["RCKP54C"]:
            m = re.search(r"description data: ((?:[0-9a-f]{2} ?){4})",
                          " ".join(lines[k:k + 2]))
            if not m:
                fail("a RCKP54C note without a 4-byte description:\n" + out)
            vers.append(struct.unpack("<I", bytes.fromhex(
                m.group(1).replace(" ", "")))[0])
    return vers


def case_layout():
    ver = layout_version()
    src = os.path.join(A.src, "flags.c")
    good, bad = tmp("layout_good"), tmp("layout_bad")
    forged_s, forged_o = tmp("forged.s"), tmp("forged.o")
    run([A.rckcc, "-rck-mem", "-O2", "-I" + A.incdir, src, ctr_obj(), "-o",
         good])
    if layout_notes(good) != [ver]:
        fail("rckcc -rck-mem: notes %s, want one of version %d"
             % (layout_notes(good), ver))
    r = run([good], check=False)
    if r.returncode != 0:
        fail("the checked program does not run: exit %d %s"
             % (r.returncode, r.stderr))
    # a module built by another rck-as: the same note, version 999
    with open(forged_s, "w") as f:
        f.write('\t.section\t.note.rck_p54c_layout,"aG",@note,'
                'rck_p54c_layout_999,comdat\n\t.balign\t4\n'
                '\t.long\t8\n\t.long\t4\n\t.long\t0x4c415931\n'
                '\t.asciz\t"RCKP54C"\n\t.balign\t4\n\t.long\t999\n')
    run(["gcc", "-c", forged_s, "-o", forged_o])
    run([A.rckcc, "-rck-mem", "-O2", "-I" + A.incdir, src, ctr_obj(),
         forged_o, "-o", bad])
    if sorted(layout_notes(bad)) != sorted([ver, 999]):
        fail("forged: notes %s, want %d and 999" % (layout_notes(bad), ver))
    r = run([bad], check=False)
    want = ("layout version 999, but this librockcreek has layout version %d"
            % ver)
    if r.returncode != 127 or want not in r.stderr or r.stdout != "":
        fail("a program of layout version 999: exit %d, stdout %r, stderr "
             "%r (want exit 127, no output, a message with %r)"
             % (r.returncode, r.stdout, r.stderr, want))
    print("layout %d: one note, runs; a module of version 999 stops the "
          "program: %s" % (ver, r.stderr.strip()))


def sections(obj):
    """{name: (address, size)} of @p obj's sections (readelf -SW)."""
    out = {}
    for line in run(["readelf", "-SW", obj]).stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+"
                     r"[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            out[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return out


CPP_H = """#include <cstddef>
#include <vector>
inline int sumv(const std::vector<int> &v)
{
    int s = 0;
    for (std::size_t i = 0; i < v.size(); i++)
        s += v[i] > 3 ? v[i] * 2 : -v[i];
    return s;
}
int f1();
"""
CPP_A = """#include "h.h"
int f1() { std::vector<int> v(10, 4); return sumv(v); }
"""
CPP_B = """#include "h.h"
#include <cstdio>
int main() { std::vector<int> v(10, 2); std::printf("%d\\n", f1() + sumv(v)); }
"""


def case_shadow():
    # each object's shadow is its unchecked code's size, section by section
    for src, comp, opt in test_builds((["-O2"], ["-O3", "-g"],
                                       ["-O2", "-fPIC", "-fcf-protection"])):
        tag = comp + "".join(opt)
        plain, inst = tmp("sh_p%s.o" % tag), tmp("sh_i%s.o" % tag)
        cc(opt + ["-c"], src, plain, False, (), comp)
        run([comp] + opt + ["-c", "-B" + A.asdir + "/", "-I" + A.incdir,
                            src, "-o", inst], env={"RCK_AS_MEM": "1"})
        ps = {k: v[1] for k, v in sections(plain).items()
              if (k == ".text" or k.startswith(".text.")) and v[1] > 0}
        ss = {k[len(".rck_shadow"):]: v[1] for k, v in sections(inst).items()
              if k.startswith(".rck_shadow.text") and v[1] > 0}
        if ps != ss:
            fail("%s: unchecked sections %s, shadow %s" % (tag, ps, ss))
        print("%-14s %d shadow sections of the unchecked sizes (%d bytes)"
              % (tag, len(ps), sum(ps.values())))
    # linked: the fetch map's shadow addresses hold every function of
    # flags.c where the unchecked program has it, modulo 256 KiB
    # (the counters' page mapped by an object built without rck-as, its
    # constructor kept in .text: an unchecked object's .text.startup would
    # lie among the checked ones' in the unchecked layout, where the shadow
    # cannot leave room for it; docs/P54C.md)
    src = os.path.join(A.src, "flags.c")
    plain, inst = tmp("sh_plain"), tmp("sh_inst")
    ctr = tmp("ctr_map_text.o")
    cc(["-O2", "-c", "-fno-reorder-functions"],
       os.path.join(A.src, "ctr_map.c"), ctr, False)
    # (rckcc -rck-mem compiles with -fno-tree-loop-distribute-patterns:
    # the unchecked program it stands for is compiled so too)
    run([A.rckcc, "-rck-nocount", "-O2", "-fno-tree-loop-distribute-patterns",
         "-I" + A.incdir, src, ctr, "-o", plain])
    run([A.rckcc, "-rck-mem", "-O2", "-I" + A.incdir, src, ctr,
         "-o", inst])
    sec = sections(inst)
    if ".rck_shadow" not in sec or ".rck_fetchmap" not in sec:
        fail("the checked program has no .rck_shadow or .rck_fetchmap: %s"
             % sorted(sec))
    fm_addr = sec[".rck_fetchmap"][0]
    fm = section_bytes(inst, ".rck_fetchmap")
    starts = set()
    for k in range(0, len(fm), 16):
        w = struct.unpack_from("<iIiI", fm, k)
        starts.add((fm_addr + k + 8 + w[2]) % 0x40000)
    # flags.c's functions: those of its own object
    obj = tmp("sh_pgcc-O2.o")
    own = {f[2] for f in (ln.split() for ln in
                          run(["nm", obj]).stdout.splitlines())
           if len(f) == 3 and f[1] in "tT"}
    funcs = {}
    for line in run(["nm", plain]).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tT" and f[2] in own:
            funcs[f[2]] = int(f[0], 16) % 0x40000
    if len(funcs) < 3:
        fail("too few of flags.c's functions found in %s: %s" % (plain, funcs))
    missing = {k: hex(v) for k, v in funcs.items() if v not in starts}
    if missing:
        fail("functions not at their unchecked address in the shadow: %s"
             % missing)
    print("linked: %d functions of flags.c at their unchecked addresses "
          "(mod 256 KiB) in the shadow" % len(funcs))
    # C++ inline functions in COMDAT groups, defined by two objects: the
    # shadow, fetch map and block tables go with their group (before, the
    # link failed: "defined in discarded section")
    if shutil.which("g++"):
        d = tmp("cpp")
        os.makedirs(d, exist_ok=True)
        for name, text in (("h.h", CPP_H), ("a.cpp", CPP_A), ("b.cpp", CPP_B)):
            with open(os.path.join(d, name), "w") as fp:
                fp.write(text)
        cxx = os.path.join(os.path.dirname(A.rckcc), "rckc++")
        srcs = [os.path.join(d, "a.cpp"), os.path.join(d, "b.cpp")]
        run([cxx, "-O2", "-fno-inline", "-rck-nocount"] + srcs +
            ["-o", os.path.join(d, "plain")])
        run([cxx, "-O2", "-fno-inline", "-rck-mem"] + srcs +
            ["-o", os.path.join(d, "inst")])
        p, i = run([os.path.join(d, "plain")]), run([os.path.join(d, "inst")])
        if p.stdout != i.stdout:
            fail("C++ with COMDAT functions: outputs differ: %s / %s"
                 % (p.stdout, i.stdout))
        print("C++, two objects sharing inline functions: linked, same output")


def main():
    global A
    p = argparse.ArgumentParser()
    p.add_argument("case", choices=["correct", "counts", "placement",
                                    "passthrough", "rckcc", "memcorrect",
                                    "shadow", "layout"])
    for o in ("asdir", "src", "simdir", "rckcc", "tmp"):
        p.add_argument("--" + o, required=True)
    A = p.parse_args()
    A.incdir = A.simdir
    A.asdir = os.path.abspath(A.asdir)
    os.makedirs(A.tmp, exist_ok=True)
    {"correct": case_correct, "counts": case_counts,
     "placement": case_placement,
     "passthrough": case_passthrough, "rckcc": case_rckcc,
     "memcorrect": case_memcorrect, "shadow": case_shadow,
     "layout": case_layout}[A.case]()
    print("PASS")


if __name__ == "__main__":
    main()
