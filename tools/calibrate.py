#!/usr/bin/python3
"""Calibrates the annotated core's firmware costs (section firmware_cycles) on the ISS core.

The same firmware sources run as a Cortex-R5F image on the instruction-set simulator
(core.model = iss). The image counts, per job (each event it takes: a host command or a finished
operation), what the annotated model would charge for it: the units of each kind of work
(fw/hal/firmware_work.h) and its table accesses; and the ISS measures the job's cycles (issue
cycles from the CPI table plus the stalls its loads and stores met). Per FTL, the costs c_k solve

    cycles_job - table_access_cycles_job  ~  sum_k c_k x units_k,job      (non-negative least squares)

over every job of a few workloads, where table_access_cycles is what the annotated model adds
for the job's table accesses on its own (their uncontended SRAM/DRAM and bus time), so the
calibrated model charges each cycle once. The costs shared by every FTL (host command, host page,
completion, operation issue and completion) come from one fit over all FTLs' jobs; the FTLs'
own kinds (map lookup and update, page allocation, victim scan) are fitted per FTL with the shared
ones held, and one value per kind is written: the median over the FTLs whose runs used that kind
(the spread is printed; the platform file has one value per kind).

Prints the fit (costs, per-FTL spread, how well it explains the cycles) and the section with its
provenance (compiler, flags, CPU model, CPI table, data cache, workloads); --write replaces the
platform file's firmware_cycles section with it.

Usage: tools/calibrate.py [-p platforms/tiny.yaml] [--ftl NAME ...] [--jobs N] [--write] [--keep DIR]
Needs python3-numpy and python3-scipy (tools/install-deps.sh).
"""
import argparse
import concurrent.futures
import csv
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from scipy.optimize import nnls

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))
KINDS = ["host_command", "host_page", "host_complete", "op_issue", "op_complete",
         "map_lookup", "map_update", "page_allocate", "gc_victim_scan"]
SHARED = KINDS[:5]
# The platform file's key for each kind (the victim scan is charged per candidate block).
KEY = {k: k for k in KINDS}
KEY["gc_victim_scan"] = "gc_scan_per_block"
PAGE_LEVEL = {"page_mapping", "dftl", "cast", "superblock", "subgroup"}


def workloads(ftl):
    """Random writes long enough for reclamation, a read/write mix whose reads find written pages,
    and large sequential writes (many pages per command)."""
    writes = "20000" if ftl in PAGE_LEVEL else "4000"
    return {
        "random-write": ["--synthetic", "random", "--read-fraction", "0", "--request-bytes", "4096", "--count", writes],
        "mix-50": ["--synthetic", "random", "--read-fraction", "0.5", "--request-bytes", "4096", "--count", "6000",
                   "--range-bytes", "16777216"],
        "sequential-64k": ["--synthetic", "sequential", "--read-fraction", "0", "--request-bytes", "65536",
                           "--count", "800"],
    }


def run(platform, ftl, name, args, work, extra):
    jobs = os.path.join(work, f"{ftl}-{name}.csv")
    report = os.path.join(work, f"{ftl}-{name}.json")
    cmd = [SSDSIM, "run", "-p", platform, "--ftl", ftl, "--set", "core.model=iss", "--precondition", "none",
           "--seed", "7", "--qd", "16", *args, *extra,
           "--no-vcd", "-q", "-r", report, "--firmware-jobs", jobs]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"calibrate: {' '.join(cmd)} failed:\n{p.stderr}")
    with open(report) as f:
        return jobs, json.load(f)


def table_access_cycles(row, eff):
    """What the annotated model adds for a job's table accesses, uncontended, in core cycles: per
    access the memory's latency, its bytes at the memory's bandwidth and over the bus."""
    mhz = eff["core.clock_mhz"]
    bus_width, bus_mhz = eff["bus.width_bytes"], eff["bus.clock_mhz"]
    cycles = 0.0
    for memory in ("sram", "dram"):
        n, b = float(row[f"touches_{memory}"]), float(row[f"touch_bytes_{memory}"])
        if n == 0:
            continue
        per = b / n
        ns = eff[f"{memory}.latency_ns"] + per / eff[f"{memory}.bandwidth_mbps"] * 1e3 + \
            np.ceil(per / bus_width) * 1e3 / bus_mhz
        cycles += n * ns * mhz / 1e3
    return cycles


def load(jobs_csv, eff):
    units, target, measured = [], [], []
    with open(jobs_csv) as f:
        for row in csv.DictReader(f):
            cycles = float(row["issue_cycles"]) + sum(float(v) for k, v in row.items() if k.startswith("stall_cycles_"))
            units.append([float(row[f"units_{k}"]) for k in KINDS])
            target.append(cycles - table_access_cycles(row, eff))
            measured.append(cycles)
    return np.array(units), np.array(target), np.array(measured)


def provenance(report, platform):
    gcc = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    flags = re.search(r'set\(SSD_TARGET_FLAGS "([^"]*)"\)',
                      open(os.path.join(ROOT, "cmake", "toolchains", "arm-cortex-r5.cmake")).read()).group(1)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    eff = report["platform"]["effective"]
    cpi = ", ".join(f"{k[len('core.cpi.'):]} {eff[k]:g}" for k in sorted(eff) if k.startswith("core.cpi."))
    return (f"ISS calibration ({datetime.date.today().isoformat()}, ssdsim {commit}, tools/calibrate.py on "
            f"{os.path.relpath(platform, ROOT)}): {report['firmware_iss']['cpu']}, {eff['core.clock_mhz']:g} MHz, "
            f"{eff['core.dcache_kib']} KiB data cache; image by {gcc}, {flags} -O2; CPI table: {cpi}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", "--platform", default=os.path.join(ROOT, "platforms", "tiny.yaml"))
    ap.add_argument("--ftl", nargs="*", help="FTLs to run (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--set", action="append", default=[], help="platform override K=V for every run")
    ap.add_argument("--write", action="store_true", help="replace the platform file's firmware_cycles section")
    ap.add_argument("--keep", help="keep the job logs and reports in this folder")
    a = ap.parse_args()
    ftls = a.ftl or [l.split()[0] for l in subprocess.run([SSDSIM, "ftls"], capture_output=True,
                                                            text=True).stdout.splitlines() if re.match(r"^[a-z]", l)]
    extra = [x for kv in a.set for x in ("--set", kv)]
    work = a.keep or tempfile.mkdtemp(prefix="calibrate-")
    os.makedirs(work, exist_ok=True)
    runs = [(f, n, w) for f in ftls for n, w in workloads(f).items()]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        done = list(pool.map(lambda r: (r[0], r[1], *run(a.platform, *r, work, extra)), runs))
    eff = done[0][3]["platform"]["effective"]
    per_ftl = {}
    for ftl, name, jobs_csv, report in done:
        u, t, m = load(jobs_csv, eff)
        prev = per_ftl.get(ftl)
        per_ftl[ftl] = (u, t, m) if prev is None else tuple(np.concatenate([p, x]) for p, x in zip(prev, (u, t, m)))

    # The shared kinds over every FTL's jobs (the FTL kinds free per FTL: a block-diagonal design).
    blocks = []
    for i, ftl in enumerate(ftls):
        u = per_ftl[ftl][0]
        own = np.zeros((len(u), len(ftls) * 4))
        own[:, i * 4:(i + 1) * 4] = u[:, 5:]
        blocks.append(np.hstack([u[:, :5], own]))
    shared_fit, _ = nnls(np.vstack(blocks), np.concatenate([per_ftl[f][1] for f in ftls]))
    costs = dict(zip(SHARED, shared_fit[:5]))
    own = {ftl: dict(zip(KINDS[5:], shared_fit[5 + 4 * i:9 + 4 * i])) for i, ftl in enumerate(ftls)}
    print("per-FTL costs of the FTL's own work (cycles per unit; '-' = not used by its runs):")
    print(f"  {'ftl':<13}" + "".join(f"{k:>15}" for k in KINDS[5:]) + "   explained")
    for ftl in ftls:
        u, t, m = per_ftl[ftl]
        used = u.sum(axis=0) > 0
        pred = u @ np.array([costs[k] for k in SHARED] + [own[ftl][k] for k in KINDS[5:]])
        err = (pred.sum() - t.sum()) / t.sum()
        print(f"  {ftl:<13}" + "".join(f"{own[ftl][k]:>15.1f}" if used[5 + j] else f"{'-':>15}"
                                      for j, k in enumerate(KINDS[5:])) +
              f"   total {100 * err:+.1f}%, per job r2 {1 - ((pred - t) ** 2).sum() / ((t - t.mean()) ** 2).sum():.2f}")
    for j, k in enumerate(KINDS[5:]):
        vals = [own[f][k] for f in ftls if per_ftl[f][0][:, 5 + j].sum() > 0]
        costs[k] = float(np.median(vals)) if vals else 0.0
    report = done[0][3]
    source = provenance(report, a.platform)
    section = "firmware_cycles:\n" + "".join(f"  {KEY[k]}: {int(round(costs[k]))}\n" for k in KINDS) + \
        f"  source: \"{source}\"\n"
    print("\nshared costs over all FTLs' jobs: " + ", ".join(f"{k} {costs[k]:.1f}" for k in SHARED))
    print("\n" + section)
    if a.write:
        text = open(a.platform).read()
        new, n = re.subn(r"^firmware_cycles:\n(?:[ \t]+.*\n)*", section, text, flags=re.M)
        if n == 0:  # the platform took the defaults: the section joins the file
            new = text.rstrip("\n") + "\n\n" + section
        elif n > 1:
            sys.exit(f"calibrate: {a.platform} has {n} firmware_cycles sections")
        open(a.platform, "w").write(new)
        print(f"calibrate: wrote {a.platform}")


if __name__ == "__main__":
    main()
