#!/usr/bin/python3
"""Calibrates the annotated core's firmware costs (section firmware_cycles) on the ISS core.

The same firmware sources run as a Cortex-R5F image on the instruction-set simulator
(core.model = iss, ssdsim run --firmware-jobs). The image counts what the annotated model would
charge (the units of each kind of work, fw/hal/firmware_work.h, and its table accesses) and marks
every charge at the controller; the ISS attributes the cycles (issue cycles from the CPI table plus
the stalls its loads and stores met) from one mark to the next to the kind the mark names. A
charge stands at the start of its work in the sources (a host command's at the top of its
handler, an operation's before it is built and posted), so a segment is that work; the cycles
before a job's first mark (taking the event from the controller, dispatching it) go to the job's
first kind. Each kind's cost is first attributed:

    a_k = (cycles attributed to k - what the annotated model adds for k's table accesses) / units of k

summed over every job of a few workloads, per FTL; the table-access time subtracted is each
access's uncontended memory and bus time (the annotated model charges it apart). On a platform
whose annotated core models its data cache (core.annotated_dcache), what it charges apart is
the misses of the declared tables and of the firmware's records (operations in flight,
write-buffer entries: fw::Hal::touch_record), which depend on the workload: each workload is then
also run on the annotated core, and its memory wait is what is taken out (from every kind in
proportion). The costs then hold the issue cycles and the stalls the records and tables do not
explain (stack, heap nodes, code paths' own data), so that the misses that grow with the range,
the queue depth and the clock are timed by the cache model rather than frozen into cycles.

One cost per kind cannot follow what the ISS measures: the same code costs what its data cache
and its callers make it cost (a mix's reads find a full write buffer and a colder cache than pure
reads; a 64 KiB write's sixteen pages run through warm lines, a 4 KiB write's one page through
cold ones: per page the ISS spends about a quarter less on large sequential writes). So the
costs are then fitted: the attributed ones changed as little as possible (least squares in
relative terms, within a tenth and ten times) so that every fitted workload's total is its
measured one. --fit names those workloads; the default is the small random I/O that loads a
firmware core most (random reads, random writes within 16 MiB and over the whole drive, a
50/50 mix: the agreement test's workloads at another seed and count); the other workloads are
measured and their error printed, as a check of how far the calibration carries (64 KiB
sequential writes on tiny: page mapping +34%, DFTL +37%, CAST +51%, the hybrids -8% to +18%).

The section holds, per kind, the median of the FTLs' fitted costs, and per FTL (subsection
firmware_cycles.<ftl>) its own value of every kind where it differs from the median by more than
TOLERANCE: a hybrid's victim scan, say, is followed by its merge planning, which a page-level
FTL's is not, so the same kind costs them differently.

Prints the per-FTL costs, how far one cost per kind is from each FTL's own cycles, and the section
with its provenance (compiler, flags, CPU model, CPI table, data cache); --write replaces the
platform file's firmware_cycles section with it (or adds one).

Usage: tools/calibrate.py [-p platforms/tiny.yaml] [--ftl NAME ...] [--fit WORKLOAD ...] [--jobs N] [--write] [--keep DIR [--reuse]]
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
import scipy.optimize

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))
KINDS = ["host_command", "host_page", "host_complete", "op_issue", "op_complete",
         "map_lookup", "map_update", "page_allocate", "gc_victim_scan", "buffer_insert", "buffer_evict",
         "op_issue_program", "op_complete_program", "op_issue_dma_in", "op_complete_dma_in",
         "op_issue_dma_out", "op_complete_dma_out"]
# The platform file's key for each kind (the victim scan is charged per candidate block).
KEY = {k: k for k in KINDS}
KEY["gc_victim_scan"] = "gc_scan_per_block"
TOLERANCE = 0.05
FITTED = ["random-write", "random-write-16m", "mix-50", "random-read"]
TOTALS_WEIGHT = 100.0  # a workload's 1% error weighs as a cost's 100% change
PAGE_LEVEL = {"page_mapping", "dftl", "cast", "superblock", "subgroup"}


def workloads(ftl):
    """Random writes long enough for reclamation and random writes within 16 MiB that reclaim
    little (so the write path's costs are told from reclamation's), a read/write mix whose reads
    find written pages, reads of a fresh drive (nothing mapped), and large sequential writes (many
    pages per command). The writes within 16 MiB, alone and in the mix, make two passes over the
    range, so that the write buffer is past filling and pages are overwritten (a hybrid merges),
    as in a steady state rather than a first fill."""
    writes = "20000" if ftl in PAGE_LEVEL else "4000"
    return {
        "random-write": ["--synthetic", "random", "--read-fraction", "0", "--request-bytes", "4096", "--count", writes],
        "random-write-16m": ["--synthetic", "random", "--read-fraction", "0", "--request-bytes", "4096", "--count",
                             "8000", "--range-bytes", "16777216"],
        "mix-50": ["--synthetic", "random", "--read-fraction", "0.5", "--request-bytes", "4096", "--count", "16000",
                   "--range-bytes", "16777216"],
        "random-read": ["--synthetic", "random", "--read-fraction", "1", "--request-bytes", "4096", "--count", "4000",
                        "--range-bytes", "16777216"],
        "sequential-64k": ["--synthetic", "sequential", "--read-fraction", "0", "--request-bytes", "65536",
                           "--count", "800"],
    }


def simulate(platform, ftl, model, args, extra, report, *more):
    """One calibration run of a workload (seed 7, queue depth 16, fresh drive) on `model`'s core."""
    cmd = [SSDSIM, "run", "-p", platform, "--ftl", ftl, "--set", f"core.model={model}", "--precondition", "none",
           "--seed", "7", "--qd", "16", *args, *extra, "--no-vcd", "-q", "-r", report, *more]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"calibrate: {' '.join(cmd)} failed:\n{p.stderr}")


def run(platform, ftl, name, args, work, extra, reuse):
    jobs = os.path.join(work, f"{ftl}-{name}.csv")
    report = os.path.join(work, f"{ftl}-{name}.json")
    if not (reuse and os.path.exists(jobs) and os.path.exists(report)):
        simulate(platform, ftl, "iss", args, extra, report, "--firmware-jobs", jobs)
    with open(report) as f:
        return jobs, json.load(f)


def annotated_wait(platform, ftl, name, args, work, extra, reuse):
    """The annotated core's memory wait on the same workload, in core cycles (with its data cache
    model: the misses of the declared tables and of the firmware's records, which it times apart
    from the cycles it charges)."""
    report = os.path.join(work, f"{ftl}-{name}-annotated.json")
    if not (reuse and os.path.exists(report)):
        simulate(platform, ftl, "annotated", args, extra, report)
    with open(report) as f:
        r = json.load(f)
    return r["hardware"]["cores"]["per_core"][0]["memory_wait_us"] * r["platform"]["effective"]["core.clock_mhz"]


def access_cycles(touches, touch_bytes, memory, eff):
    """What the annotated model adds for `touches` table accesses of `touch_bytes` in `memory`,
    uncontended, in core cycles: each access's latency, its bytes at the memory's bandwidth and
    its beats over the bus."""
    if touches == 0:
        return 0.0
    per = touch_bytes / touches
    ns = eff[f"{memory}.latency_ns"] + per / eff[f"{memory}.bandwidth_mbps"] * 1e3 + \
        np.ceil(per / eff["bus.width_bytes"]) * 1e3 / eff["bus.clock_mhz"]
    return touches * ns * eff["core.clock_mhz"] / 1e3


def load(jobs_csv, eff, wait=None):
    """Per kind: units, cycles (what the annotated model times apart taken out), over every job of
    the log; and the jobs' total cycles and unmarked cycles. Without a data cache model the
    annotated core times each declared table access at its memory's uncontended latency, taken out
    per kind; with one (wait: its memory wait on the workload, in cycles) the misses it times
    depend on the workload, so its wait is taken out of every kind in proportion."""
    units, cycles = np.zeros(len(KINDS)), np.zeros(len(KINDS))
    total = unmarked = 0.0
    with open(jobs_csv) as f:
        for row in csv.DictReader(f):
            total += float(row["cycles"])
            unmarked += float(row["unmarked_cycles"])
            for i, k in enumerate(KINDS):
                units[i] += float(row[f"units_{k}"])
                cycles[i] += float(row[f"cycles_{k}"]) - (0 if wait is not None else sum(
                    access_cycles(float(row[f"touches_{m}_{k}"]), float(row[f"touch_bytes_{m}_{k}"]), m, eff)
                    for m in ("sram", "dram")))
    if wait is not None:
        cycles *= 1 - wait / cycles.sum()
    return units, cycles, total, unmarked


def fit(attributed, totals):
    """The attributed costs changed as little as possible (least squares in relative terms) so
    that each workload's units, charged at the costs, give its measured cycles: a kind's cost
    depends on what the workload makes that code do (a read of a fresh drive's mapping finds
    nothing; a mix's reads find a full write buffer and a colder data cache), which one cost per
    kind cannot follow, so the workloads' totals decide and the attribution breaks the ties.
    totals: (units per kind, measured cycles) per workload."""
    kinds = [i for i, k in enumerate(KINDS) if k in attributed]
    a = np.array([attributed[KINDS[i]] for i in kinds])
    u = np.array([[t[0][i] for i in kinds] for t in totals])
    m = np.array([t[1] for t in totals])
    # Rows: each workload's relative error (weighted to dominate), then each cost's relative
    # change; costs stay within a tenth and ten times what was attributed.
    rows = np.vstack([TOTALS_WEIGHT * u / m[:, None], np.diag(1 / a)])
    target = np.concatenate([np.full(len(m), TOTALS_WEIGHT), np.ones(len(a))])
    c = scipy.optimize.lsq_linear(rows, target, bounds=(a / 10, a * 10)).x
    return {KINDS[i]: float(c[j]) for j, i in enumerate(kinds)}


def provenance(report, platform, fitted):
    gcc = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    flags = re.search(r'set\(SSD_TARGET_FLAGS "([^"]*)"\)',
                      open(os.path.join(ROOT, "cmake", "toolchains", "arm-cortex-r5.cmake")).read()).group(1)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    eff = report["platform"]["effective"]
    cpi = ", ".join(f"{k[len('core.cpi.'):]} {eff[k]:g}" for k in sorted(eff) if k.startswith("core.cpi."))
    return (f"ISS calibration ({datetime.date.today().isoformat()}, ssdsim {commit}, tools/calibrate.py on "
            f"{os.path.relpath(platform, ROOT)}): {report['firmware_iss']['cpu']}, {eff['core.clock_mhz']:g} MHz, "
            f"{eff['core.dcache_kib']} KiB data cache{' (modeled on the annotated core too)' if eff['core.annotated_dcache'] else ''}; image by {gcc}, {flags} -O2; CPI table: {cpi}; "
            f"fitted to {', '.join(fitted)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", "--platform", default=os.path.join(ROOT, "platforms", "tiny.yaml"))
    ap.add_argument("--ftl", nargs="*", help="FTLs to run (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--set", action="append", default=[], help="platform override K=V for every run")
    ap.add_argument("--write", action="store_true", help="replace the platform file's firmware_cycles section")
    ap.add_argument("--fit", nargs="+", default=FITTED, choices=list(workloads("page_mapping")),
                    help=f"workloads whose totals the costs must reproduce (default: {' '.join(FITTED)})")
    ap.add_argument("--keep", help="keep the job logs and reports in this folder")
    ap.add_argument("--reuse", action="store_true", help="with --keep: use the runs already there")
    a = ap.parse_args()
    ftls = a.ftl or [l.split()[0] for l in subprocess.run([SSDSIM, "ftls"], capture_output=True,
                                                            text=True).stdout.splitlines() if re.match(r"^[a-z]", l)]
    extra = [x for kv in a.set for x in ("--set", kv)]
    work = a.keep or tempfile.mkdtemp(prefix="calibrate-")
    os.makedirs(work, exist_ok=True)
    runs = [(f, n, w) for f in ftls for n, w in workloads(f).items()]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        done = list(pool.map(lambda r: (r[0], r[1], *run(a.platform, *r, work, extra, a.reuse)), runs))
    eff = done[0][3]["platform"]["effective"]
    waits = {}
    if eff["core.annotated_dcache"]:
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            waits = dict(zip([(f, n) for f, n, _ in runs], pool.map(
                lambda r: annotated_wait(a.platform, r[0], r[1], r[2], work, extra, a.reuse), runs)))
    measured = {(ftl, name): load(jobs_csv, eff, waits.get((ftl, name))) for ftl, name, jobs_csv, report in done}
    print("cycles per unit of work each FTL's runs measured, pooled over its workloads ('-': not done):")
    print(f"  {'ftl':<13}" + "".join(f"{k:>20}" for k in KINDS) + "   unmarked")
    own = {}
    for ftl in ftls:
        runs_of = [measured[(ftl, n)] for n in workloads(ftl)]
        units, cycles = sum(r[0] for r in runs_of), sum(r[1] for r in runs_of)
        attributed = {k: cycles[i] / units[i] for i, k in enumerate(KINDS) if units[i] > 0}
        print(f"  {ftl:<13}" + "".join(f"{attributed[k]:>20.1f}" if k in attributed else f"{'-':>20}" for k in KINDS) +
              f"   {100 * sum(r[3] for r in runs_of) / sum(r[2] for r in runs_of):.2f}%")
        own[ftl] = fit(attributed, [(r[0], r[1].sum()) for n, r in zip(workloads(ftl), runs_of) if n in a.fit])
    print("\nafter the least change that makes every workload's total its measured one:")
    for ftl in ftls:
        print(f"  {ftl:<13}" + "".join(f"{own[ftl][k]:>20.1f}" if k in own[ftl] else f"{'-':>20}" for k in KINDS))
    # A kind no workload did keeps the platform's cost (the default platform's drive is too large
    # for the calibration's writes to start GC, so its victim scan goes unmeasured).
    costs, unmeasured = {}, []
    for k in KINDS:
        vals = [own[f][k] for f in ftls if k in own[f]]
        if not vals:
            unmeasured.append(KEY[k])
        costs[k] = float(np.median(vals)) if vals else float(eff[f"firmware_cycles.{KEY[k]}"])
    overrides = {f: {k: v for k, v in own[f].items() if costs[k] and abs(v - costs[k]) > TOLERANCE * costs[k]}
                 for f in ftls}
    print("\ncharged with the section (median costs, the FTL's own where they differ by more than "
          f"{100 * TOLERANCE:g}%) against what the ISS measured (table accesses taken out), per workload:")
    for ftl in ftls:
        errors = []
        for n in workloads(ftl):
            units, cycles = measured[(ftl, n)][:2]
            charged = sum(overrides[ftl].get(k, costs[k]) * units[i] for i, k in enumerate(KINDS))
            errors.append(f"{n} {100 * (charged - cycles.sum()) / cycles.sum():+.2f}%")
        print(f"  {ftl:<13} " + ", ".join(errors))
    report = done[0][3]
    source = provenance(report, a.platform, a.fit) + \
        (f"; not measured, kept: {', '.join(unmeasured)}" if unmeasured else "")
    section = "firmware_cycles:\n" + "".join(f"  {KEY[k]}: {int(round(costs[k]))}\n" for k in KINDS) + \
        f"  clock_mhz: {report['platform']['effective']['core.clock_mhz']:g}\n" + f"  source: \"{source}\"\n" + "".join(
            f"  {f}:\n" + "".join(f"    {KEY[k]}: {int(round(v))}\n" for k, v in overrides[f].items())
            for f in ftls if overrides[f])
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
