"""What the P54C engine tests share (p54c_mem_engines.py, p54c_hal_engines.py,
p54c_fetch.py, p54c_mpbt_write.py): one run of a program on the sim under
RCK_COMPUTE=p54c on one engine, failing the test (exit 1, with the command
and its output) when the run fails or did not run on that engine."""
import os
import subprocess
import sys


def run_p54c(rck, engine, nues, args, tmp, report=None, env_extra=None):
    """Run `rck run -n NUES --backend sim [--report REPORT] ARGS` in TMP on
    ENGINE ("compiled" or "qemu"). @return the CompletedProcess (text)."""
    env = dict(os.environ, RCK_COMPUTE="p54c", RCK_P54C_ENGINE=engine)
    env.update(env_extra or {})
    cmd = [rck, "run", "-n", str(nues), "--backend", "sim"]
    if report is not None:
        cmd += ["--report", report]
    cmd += list(args)
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=tmp)
    if r.returncode != 0:
        print("FAIL: %s (%s): exit %d\n%s%s" % (" ".join(cmd), engine,
                                                r.returncode, r.stdout,
                                                r.stderr))
        sys.exit(1)
    if report is not None and "p54c (%s)" % engine not in r.stderr:
        print("FAIL: %s did not run on the %s engine:\n%s"
              % (" ".join(cmd), engine, r.stderr))
        sys.exit(1)
    return r


def finish(bad):
    """The verdict: exit 1 with the count of figures that disagree, else
    print PASS."""
    if bad:
        print("FAIL: %d figures disagree" % bad)
        sys.exit(1)
    print("PASS")
