"""master_worker.py: a task farm over rockcreek.rcce, with peek.

UE 0 is the master; every other UE is a worker that asks for work, gets a
task (a range of integers whose primes it counts), and returns its result.
Workers send two kinds of message, each a pickled tuple whose first item
names the kind: ("ready", ue) and ("result", ue, task, count). The master
waits until a message is there (``probe``), looks at its first bytes with
``peek`` (rockcreek's RCCE_peek extension, through iRCCE_peek) to learn
its kind before receiving it, then receives it and answers a ready worker
with a task (or stop) or adds a result to the total. The master prints the total, which is checked against a serial
count.

    rck run -n 8 python3 examples/python/master_worker.py [-t TASKS] [-s SIZE]
"""

import argparse
import os
import pickle
import sys

try:
    from rockcreek import rcce
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "python", "src"))
    from rockcreek import rcce


def count_primes(lo, hi):
    c = 0
    for k in range(max(lo, 2), hi):
        if all(k % d for d in range(2, int(k ** 0.5) + 1)):
            c += 1
    return c


READY = pickle.dumps(("ready",), pickle.HIGHEST_PROTOCOL)


def kind_of(head):
    """The kind named by a message's first bytes (a pickled tuple whose
    first item is a short str): b"ready" or b"result"."""
    for k in (b"ready", b"result"):
        if k in head:
            return k.decode()
    return "unknown"


def master(comm, tasks, size):
    todo = [(i * size, (i + 1) * size) for i in range(tasks)]
    total, results, workers = 0, 0, comm.size - 1
    stopped, peeked_ready = 0, 0
    while results < tasks or stopped < workers:
        comm.probe()                      # something is waiting
        p = comm.peek(rcce.ANY_SOURCE, 24)
        kind = kind_of(p.data)
        msg = comm.recv(p.source)
        if kind == "ready":
            peeked_ready += 1
            assert msg[0] == "ready"
            if todo:
                comm.send(("task",) + todo.pop(), p.source)
            else:
                comm.send(("stop",), p.source)
                stopped += 1
        elif kind == "result":
            assert msg[0] == "result"
            total += msg[3]
            results += 1
        else:
            raise RuntimeError("unknown message from UE %d: %r" % (p.source, p.data))
    return total, peeked_ready


def worker(comm):
    done = 0
    while True:
        comm.send(("ready", comm.rank), 0)
        msg = comm.recv(0)
        if msg[0] == "stop":
            return done
        lo, hi = msg[1], msg[2]
        comm.send(("result", comm.rank, (lo, hi), count_primes(lo, hi)), 0)
        done += 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-t", "--tasks", type=int, default=64)
    ap.add_argument("-s", "--size", type=int, default=2000)
    a = ap.parse_args(argv)
    rcce.init()
    comm = rcce.COMM_WORLD
    if comm.size < 2:
        print("master_worker.py: needs at least 2 UEs", file=sys.stderr)
        rcce.finalize()
        return 2
    if comm.rank == 0:
        total, ready = master(comm, a.tasks, a.size)
        want = count_primes(0, a.tasks * a.size)
        print("master_worker.py: %d tasks on %d workers, %d primes below %d (serial: %d) %s" % (
            a.tasks, comm.size - 1, total, a.tasks * a.size, want,
            "OK" if total == want else "WRONG"), flush=True)
        status = 0 if total == want else 1
    else:
        worker(comm)
        status = 0
    rcce.finalize()
    return status


if __name__ == "__main__":
    sys.exit(main())
