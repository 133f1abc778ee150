#!/usr/bin/env python3
"""DFTL vs CAST vs pure page mapping on the shared traces, across mapping-cache (SRAM) budgets.

Replays MSR rsrch_1, hm_0, wdev_1, TPC-C and WebSearch on platforms/cast_paper_blocks_2g.yaml (addresses
folded into the drive, which is filled and then randomly overwritten once so GC is in steady
state -- or only filled, so data lies in the order it was written; trace timestamps kept: open loop; short traces replayed several times, see TRACES) with page mapping (budget-independent: run once per
trace), DFTL and CAST (ABL, 4 current blocks) at each budget, and writes a CSV and a Markdown
table: response time (mean, p99), translation-page reads and writes, mapping-cache hit rate,
erases and WAF, plus CAST's average run length per cache entry.

Usage: bench/ftl_compare.py [--out DIR] [--jobs N] [--budgets 65536,...] [--traces name,...]
Needs a built ssdsim (cmake --preset default && cmake --build --preset default).
"""
import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from bench_common import ROOT, TRACES_DIR, run_ssdsim, write_tables

# name: (file under shared/traces, passes, time scale). Passes: each trace is replayed back to
# back until its writes keep GC busy (erase counts of a single pass are a handful of GC runs,
# mostly noise). TPC-C is time-compressed beyond what 8 dies can absorb: its arrivals are
# stretched 20x so it does not only measure queueing.
TRACES = {
    "rsrch_1": ("msr/rsrch_1.csv", 3, 1.0),
    "hm_0": ("msr/hm_0.csv", 10, 1.0),
    "wdev_1": ("msr/wdev_1.csv", 20, 1.0),
    "tpcc": ("mqsim/tpcc-small.trace", 5, 20.0),
    "websearch": ("mqsim/wsrch-small.trace", 2, 1.0),
}
BUDGETS = [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20]
COLUMNS = ["precondition", "trace", "ftl", "cmt_bytes", "requests", "mean_us", "p99_us", "read_mean_us", "write_mean_us",
           "translation_reads", "translation_writes", "cmt_hit_rate", "erases", "waf", "avg_run_length"]


def run(args, precondition, trace, ftl, budget):
    name = f"{precondition.replace(':', '_').replace('+', '_')}-{trace}-{ftl}-{budget or 'full'}"
    report = os.path.join(args.out, name + ".json")
    path, passes, time_scale = TRACES[trace]
    cmd = ["-p", args.platform, "--ftl", ftl, "-t", os.path.join(args.traces_dir, path), "--repeat", str(passes),
           "--time-scale", str(time_scale), "--fold", "--precondition", precondition]
    if budget:
        cmd += ["--set", f"ftl.cmt_bytes={budget}"]
    r = run_ssdsim(cmd, report)
    f, h = r["ftl_metrics"], r["host"]
    hits = f.get("cmt_read_hits", 0) + f.get("cmt_write_hits", 0)
    lookups = hits + f.get("cmt_read_misses", 0) + f.get("cmt_write_misses", 0)
    return {
        "precondition": precondition, "trace": trace, "ftl": ftl, "cmt_bytes": budget or "",
        "requests": h["requests"],
        "mean_us": round(h["latency_us"]["mean"], 1), "p99_us": round(h["latency_us"]["p99"], 1),
        "read_mean_us": round(h["read_latency_us"]["mean"], 1), "write_mean_us": round(h["write_latency_us"]["mean"], 1),
        "translation_reads": f.get("translation_reads_host", 0) + f.get("translation_reads_gc", 0),
        "translation_writes": f.get("translation_writes_host", 0) + f.get("translation_writes_gc", 0),
        "cmt_hit_rate": round(hits / lookups, 4) if lookups else "",
        "erases": f["erases"], "waf": round(f["waf"], 3),
        "avg_run_length": round(f["cmt_average_run_length"], 2) if "cmt_average_run_length" in f else "",
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=os.path.join(ROOT, "results", "ftl_compare"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--budgets", default=",".join(str(b) for b in BUDGETS))
    p.add_argument("--traces", default=",".join(TRACES))
    p.add_argument("--platform", default=os.path.join(ROOT, "platforms", "cast_paper_blocks_2g.yaml"))
    p.add_argument("--preconditions", default="fill+random:1,fill",
                   help="drive states to start from: random layout (steady-state GC) and sequential layout")
    p.add_argument("--traces-dir", default=TRACES_DIR)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    traces = args.traces.split(",")
    for t in traces:
        if t not in TRACES:
            sys.exit(f"unknown trace '{t}' (known: {', '.join(TRACES)})")
    budgets = [int(b) for b in args.budgets.split(",")]
    preconditions = args.preconditions.split(",")
    jobs = [(pc, t, "page_mapping", 0) for pc in preconditions for t in traces]
    jobs += [(pc, t, ftl, b) for pc in preconditions for t in traces for b in budgets for ftl in ("dftl", "cast")]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(lambda j: run(args, *j), jobs))

    lines = []
    # CAST relative to DFTL at the same budget: the paper's headline ratios.
    lines += ["", "| precondition | trace | cmt_bytes | CAST/DFTL mean response | CAST/DFTL translation reads | "
              "CAST/DFTL translation writes | CAST/DFTL erases |", "|---|---|---|---|---|---|---|"]
    by = {(r["precondition"], r["trace"], r["ftl"], r["cmt_bytes"]): r for r in rows}
    ratio = lambda a, b: f"{a / b:.3f}" if b else "-"
    for pc, t, b in ((pc, t, b) for pc in preconditions for t in traces for b in budgets):
        c, d = by[(pc, t, "cast", b)], by[(pc, t, "dftl", b)]
        lines.append(f"| {pc} | {t} | {b} | {ratio(c['mean_us'], d['mean_us'])} | "
                     f"{ratio(c['translation_reads'], d['translation_reads'])} | "
                     f"{ratio(c['translation_writes'], d['translation_writes'])} | {ratio(c['erases'], d['erases'])} |")
    write_tables(args.out, "ftl_compare", COLUMNS, rows, lines)

if __name__ == "__main__":
    main()
