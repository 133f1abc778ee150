#!/usr/bin/env python3
"""Hybrid log-block FTLs (BAST, FAST, FASTer, LAST, SUPERBLOCK) and pure page mapping on the
shared MSR (rsrch_1, hm_0, wdev_1, mds_0, proj_0) and TPC-C traces, on a single-chip platform
(platforms/single_chip_1g.yaml: the LAST paper's flash, hybrids on single physical blocks) and on the
default multi-channel platform (hybrid blocks striped over the 8 channels).

Per run: merges by kind, dead-block erases, copies, erases, GC overhead in LAST's measure
(copies x (tR + tPROG) + padding x tPROG + erases x tBERS, in ms) and response times. Drives are
filled sequentially first; traces are folded into the drive, kept on their timestamps (TPC-C
stretched 20x) and replayed back to back as in TRACES so that the log turns over many times.

Usage: bench/hybrid_compare.py [--out DIR] [--jobs N] [--platforms single_chip,default]
       [--traces name,...] [--ftls name,...]
"""
import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from bench_common import ROOT, TRACES_DIR, effective_number, run_ssdsim, write_tables

TRACES = {  # name: (file, passes, time scale)
    "rsrch_1": ("msr/rsrch_1.csv", 1, 1.0),
    "hm_0": ("msr/hm_0.csv", 5, 1.0),
    "wdev_1": ("msr/wdev_1.csv", 10, 1.0),
    "mds_0": ("msr/mds_0.csv", 10, 1.0),
    "proj_0": ("msr/proj_0.csv", 10, 1.0),
    "tpcc": ("mqsim/tpcc-small.trace", 3, 20.0),
}
PLATFORMS = {  # name: (platform file, settings for the hybrids)
    "single_chip": (os.path.join(ROOT, "platforms", "single_chip_1g.yaml"), ["--set", "ftl.segment_planes=1"]),
    "default": (os.path.join(ROOT, "platforms", "default.yaml"), ["--set", "ftl.segment_planes=8"]),
}
# Column name: (FTL, its settings). last-64k: LAST with the locality threshold raised to 64 KiB
# (ADAPT's upper bound), because these traces write many random 8-16 KiB requests that LAST's
# 4 KiB threshold (tuned for 2 KiB pages on Windows XP) sends to the sequential buffer.
FTL_SETTINGS = {
    "bast": ("bast", []), "fast": ("fast", []), "faster": ("faster", []), "last": ("last", []),
    "last-64k": ("last", ["--set", "ftl.size_threshold_bytes=65536"]),
    "superblock": ("superblock", []), "page_mapping": ("page_mapping", []),
}
FTLS = list(FTL_SETTINGS)
COLUMNS = ["platform", "trace", "ftl", "requests", "switch", "partial", "full", "mean_associativity", "dead",
           "copies", "erases", "gc_overhead_ms", "waf", "mean_us", "p99_us"]


def run(args, platform, trace, ftl):
    path, passes, scale = TRACES[trace]
    file, hybrid_settings = PLATFORMS[platform]
    name, settings = FTL_SETTINGS[ftl]
    cmd = ["-p", file, "--ftl", name, "-t", os.path.join(TRACES_DIR, path), "--repeat", str(passes),
           "--time-scale", str(scale), "--fold", "--precondition", "fill", *settings]
    if name != "page_mapping":
        cmd += hybrid_settings
    r = run_ssdsim(cmd, os.path.join(args.out, f"{platform}-{trace}-{ftl}.json"))
    f, h = r["ftl_metrics"], r["host"]
    g = lambda k: f.get(k, 0)
    copies = g("merge_copies") + g("gc_copies")
    t_read, t_prog = effective_number(r, "nand.t_read_us"), effective_number(r, "nand.t_prog_us")
    t_erase = effective_number(r, "nand.t_erase_us")
    overhead_us = copies * (t_read + t_prog) + g("padding_pages") * t_prog + g("erases") * t_erase
    return {
        "platform": platform, "trace": trace, "ftl": ftl, "requests": h["requests"],
        "switch": g("switch_merges"), "partial": g("partial_merges"), "full": g("full_merges"),
        "mean_associativity": round(g("full_merge_associated_blocks") / g("full_merges"), 2) if g("full_merges") else "",
        "dead": g("dead_block_erases"), "copies": copies, "erases": g("erases"),
        "gc_overhead_ms": round(overhead_us / 1000, 1), "waf": round(f["waf"], 3),
        "mean_us": round(h["latency_us"]["mean"], 1), "p99_us": round(h["latency_us"]["p99"], 1),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=os.path.join(ROOT, "results", "hybrid_compare"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--platforms", default=",".join(PLATFORMS))
    p.add_argument("--traces", default=",".join(TRACES))
    p.add_argument("--ftls", default=",".join(FTLS))
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    platforms, traces, ftls = args.platforms.split(","), args.traces.split(","), args.ftls.split(",")
    for name, known in ((platforms, PLATFORMS), (traces, TRACES), (ftls, FTL_SETTINGS)):
        for n in name:
            if n not in known:
                sys.exit(f"unknown name '{n}' (known: {', '.join(known)})")
    jobs = [(pl, t, f) for pl in platforms for t in traces for f in ftls]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(lambda j: run(args, *j), jobs))
    # GC overhead relative to SUPERBLOCK (LAST's Figure 8 normalisation) per platform and trace.
    extra = ["", "| platform | trace | " + " | ".join(f"{f} / superblock" for f in ftls) + " |",
             "|---|---|" + "---|" * len(ftls)]
    by = {(r["platform"], r["trace"], r["ftl"]): r for r in rows}
    if "superblock" in ftls:
        for pl in platforms:
            for t in traces:
                base = by[(pl, t, "superblock")]["gc_overhead_ms"]
                cells = [f"{by[(pl, t, f)]['gc_overhead_ms'] / base:.2f}" if base else "-" for f in ftls]
                extra.append(f"| {pl} | {t} | " + " | ".join(cells) + " |")
    write_tables(args.out, "hybrid_compare", COLUMNS, rows, extra)


if __name__ == "__main__":
    main()
