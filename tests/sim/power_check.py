#!/usr/bin/env python3
"""The sim's power model, from its reports (docs/POWER.md).

power_check.py RCK SIM_POWER OUTDIR

Runs `sim_power load` (every UE busy reading its cycle counter) on 1, 2, 4,
8, 16 and 48 cores with RCK_COMPUTE=none and checks: the report's energy
and power keys are there and consistent (total = islands + uncore; the
series' energy = the total; per-island = sum of its cores); average power
grows linearly with the busy cores (every added core adds the same watts
within 2 %); the power series' samples follow the sensor period."""
import json
import os
import subprocess
import sys

RCK, PROG, OUT = sys.argv[1:4]
CALLS = "4000"


def run(n, extra=None):
    rep = os.path.join(OUT, f"power-{n}.json")
    env = dict(os.environ, RCK_COMPUTE="none", RCK_SIM_REPORT=rep,
               RCK_SIM_SUMMARY="0")
    env.update(extra or {})
    subprocess.run([RCK, "run", "-n", str(n), "--backend", "sim", PROG,
                    "load", CALLS], check=True, env=env)
    with open(rep) as f:
        return json.load(f)


def check(cond, msg):
    if not cond:
        print("power_check: FAILED:", msg)
        sys.exit(1)


def consistent(r, n):
    e, p = r["energy"], r["power"]
    isl = e["per_island_j"]
    check(len(e["per_core_j"]) == 48 and len(isl) == 6, "array sizes")
    check(abs(sum(isl) + e["uncore_j"] - e["total_j"]) < 1e-7 * e["total_j"]
          + 1e-12, f"{n}: total {e['total_j']} != islands + uncore")
    for k in range(6):
        cores = [c for c in range(48) if (c // 2 % 6) // 2 + 3 * (c // 12 // 2) == k]
        s = sum(e["per_core_j"][c] for c in cores)
        check(abs(s - isl[k]) < 1e-6 * isl[k], f"{n}: island {k}")
    secs = r["simulated_seconds"]
    check(abs(p["avg_w"] * secs - e["total_j"]) < 1e-3 * e["total_j"],
          f"{n}: avg_w x time != total")
    sr = p["series"]
    t0, ej = 0.0, 0.0
    for t, w in zip(sr["t_s"], sr["chip_w"]):
        ej += w * (t - t0)
        t0 = t
    check(abs(ej - e["total_j"]) < 1e-3 * e["total_j"],
          f"{n}: series integrates to {ej} J, total {e['total_j']} J")
    check(all(len(x) == 6 for x in sr["island_w"]), "island_w rows")
    return p["avg_w"]


def main():
    watts = {}
    for n in (1, 2, 4, 8, 16, 48):
        watts[n] = consistent(run(n), n)
        print(f"{n:2d} busy cores: {watts[n]:8.3f} W")
    per = watts[2] - watts[1]
    check(per > 0, "a second busy core adds no power")
    for n in (4, 8, 16, 48):
        step = (watts[n] - watts[1]) / (n - 1)
        check(abs(step - per) < 0.02 * per,
              f"{n} cores: {step:.4f} W per added core, {per:.4f} W for the 2nd")
    r = run(2, {"RCK_SIM_POWER_PERIOD_US": "1"})
    sr = r["power"]["series"]
    check(abs(sr["period_s"] - 1e-6) < 1e-12 or sr["period_s"] > 1e-6,
          f"period {sr['period_s']}")
    check(len(sr["t_s"]) > 3, "a 1 us period gives more than 3 samples")
    print("power_check: ok")


main()
