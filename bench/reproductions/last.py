#!/usr/bin/python3
"""LAST (Lee et al., locality-aware sector translation) reproduced: BAST, FAST, FASTer,
SUPERBLOCK and LAST on the paper's flash, each with the same update space (the paper's 1.56%
log, 1/16 of it LAST's sequential buffer), on drives sized so that every trace's written
footprint is many times the log (the paper's desktop traces dwarfed its 512 MB log), with the
paper's GC overhead measure (Fig. 8), the merge breakdown (Fig. 9), ablations of LAST's
mechanisms, and every hybrid at its defaults on the default multi-channel platform.

Writes bench/reproductions/last.{md,csv} and last_*.png from runs it makes (reports under
results/reproductions/last). --quick: the bundled hm_0 trace, no default-platform runs.
Needs a built ssdsim (cmake --preset default && cmake --build --preset default).
"""
import math
import os

import repro
from repro import fmt, judge, metric, ratio, table
from bench_common import effective_number

CHIP = os.path.join(repro.ROOT, "platforms", "single_chip_1g.yaml")
DEFAULT = repro.DEFAULT_PLATFORM
LOG_SHARE = 0.0156  # 512 MB of 32 GB (4,096 of 262,144 blocks)
PRESSURE = 10       # the drive is sized so that footprint >= PRESSURE x log where the trace allows
MIN_BLOCKS = math.ceil(4 / LOG_SHARE)  # LAST needs 4 log blocks (1 sequential + 3 random)
# name: (file, passes, time scale, extra arguments)
TRACES = {
    "rsrch_1": ("msr/rsrch_1.csv", 1, 1.0, []),
    "hm_0": ("msr/hm_0.csv", 5, 1.0, []),
    "wdev_1": ("msr/wdev_1.csv", 10, 1.0, []),
    "mds_0": ("msr/mds_0.csv", 10, 1.0, []),
    "proj_0": ("msr/proj_0.csv", 10, 1.0, []),
    "tpcc": ("mqsim/tpcc-small.trace", 3, 20.0, []),
    "disksim": ("disksim/ascii.trace", 1, 1.0, []),
    "ycsb": ("blkparse/ycsb-ext4.txt", 1, 1.0, ["--skip-bad-lines"]),
    # Synthetic, the paper's kind of workload (mixed large sequential and hot small random writes),
    # which none of the shared traces is: workloads/desktop_mix.yaml.
    "desktop_mix": (os.path.join(repro.ROOT, "workloads", "desktop_mix.yaml"), 1, 1.0, []),
}
# --quick runs from a clone alone: the hm_0 trace bundled in workloads/traces.
QUICK_TRACES = {"hm_0": (os.path.join(repro.ROOT, "workloads", "traces", "hm_0.csv"), 2, 1.0, [])}
HYBRIDS = ["bast", "fast", "faster", "superblock", "last"]

ABLATIONS = {  # LAST with one mechanism changed
    "last-64k": ["--set", "ftl.size_threshold_pages=32"],       # ADAPT's upper threshold (64 KiB)
    "last-close": ["--set", "ftl.sequential_misfit=close"],     # a misfit closes its sequential block
    "last-1seq": ["--set", "ftl.sequential_blocks=1"],          # one sequential block, as FAST
}
PAPER_FTL = ["--set", "ftl.segment_planes=1", "--set", f"ftl.log_share={LOG_SHARE}"]


def gc_overhead_ms(rep):
    """LAST's measure: copies x (tR + tPROG) + padding x tPROG + erases x tBERS."""
    t_r, t_p, t_e = (effective_number(rep, k) for k in ("nand.t_read_us", "nand.t_prog_us", "nand.t_erase_us"))
    copies = metric(rep, "merge_copies") + metric(rep, "gc_copies")
    return (copies * (t_r + t_p) + metric(rep, "padding_pages") * t_p + metric(rep, "erases") * t_e) / 1000


def merges(rep):
    return {k: metric(rep, k + "_merges") for k in ("switch", "partial", "full")} | {"dead": metric(rep, "dead_block_erases")}


def main():
    args = repro.arguments(__doc__, "last")
    traces = QUICK_TRACES if args.quick else TRACES
    # 1. Drives sized by each trace's written footprint (2 KiB pages: platforms/single_chip_1g.yaml).
    detail = None if args.quick else args.detail_writes
    full, short = repro.written_footprints(args, traces, CHIP, 2048)
    blocks_for = lambda pages: max(MIN_BLOCKS, int(pages / 64 / PRESSURE / LOG_SHARE))
    sizes = {t: blocks_for(full[t]) for t in traces}
    dsizes = {t: blocks_for(short[t]) for t in traces}
    loop_sizes = {} if args.quick else {t: blocks_for(p) for t, p in repro.excerpt_footprints(args, traces, 2048).items()}
    # 2. The matrix: every hybrid and page mapping on each trace's drive (million-write stand-ins),
    #    LAST's ablations on the shorter stand-ins, and (full runs) every hybrid at its defaults on the
    #    default platform.
    jobs = {}
    for t in traces:
        drive = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={sizes[t]}"]
        for f in HYBRIDS:
            jobs[f"chip-{t}-{f}"] = [*drive, "--ftl", f, *PAPER_FTL, *repro.trace_args(args, traces, t), "--precondition", "fill"]
        jobs[f"chip-{t}-page_mapping"] = [*drive, "--ftl", "page_mapping", *repro.trace_args(args, traces, t),
                                          "--precondition", "fill"]
        ddrive = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={dsizes[t]}"]
        dtrace = repro.trace_args(args, traces, t, writes=detail)
        jobs[f"detail-{t}-last"] = [*ddrive, "--ftl", "last", *PAPER_FTL, *dtrace, "--precondition", "fill"]
        for a, extra in ABLATIONS.items():
            if args.quick and a != "last-64k":
                continue
            jobs[f"detail-{t}-{a}"] = [*ddrive, "--ftl", "last", *PAPER_FTL, *extra, *dtrace, "--precondition", "fill"]
        if not args.quick and not repro.is_synthetic(traces, t):  # the excerpt looped, as before: a comparison
            for f in HYBRIDS:
                jobs[f"loop-{t}-{f}"] = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={loop_sizes[t]}", "--ftl", f, *PAPER_FTL, *repro.trace_args(args, traces, t, looped=True),
                                         "--precondition", "fill"]
        for f in HYBRIDS + ["page_mapping"]:
            jobs[f"default-{t}-{f}"] = ["-p", DEFAULT, "--ftl", f, *dtrace]
            jobs[f"defwt-{t}-{f}"] = ["-p", DEFAULT, "--ftl", f, "--set", "firmware.write_buffer=off", *dtrace]
    paper_jobs, default_jobs = repro.split_matrix(args, jobs)
    if paper_jobs:
        r = repro.run_matrix(args, paper_jobs)
        repro.write_csv(os.path.join(args.out, "last.csv"), csv_rows(r))
        write_markdown(args, r, traces, sizes, with_default=not (args.quick or args.no_default_platform))
    if default_jobs:
        r = repro.run_default_matrix(args, default_jobs)
        repro.write_csv(os.path.join(args.out, "last-default.csv"), csv_rows(r))
        write_default_markdown(args, r, traces)


def csv_rows(r):
    rows = []
    for name, rep in sorted(r.items()):
        if repro.failed(rep):
            rows.append({"run": name, "failed": repro.failed(rep)})
            continue
        m = merges(rep)
        rows.append({"run": name, "requests": rep["host"]["requests"],
                     "footprint_pages": rep["workload"]["written_footprint_pages"],
                     "log_blocks": log_blocks(rep), **m, "copies": metric(rep, "merge_copies") + metric(rep, "gc_copies"),
                     "padding": metric(rep, "padding_pages"), "erases": metric(rep, "erases"),
                     "gc_overhead_ms": round(gc_overhead_ms(rep), 1), "waf": repro.ftl_waf(rep),
                     "mean_us": round(rep["host"]["latency_us"]["mean"], 1),
                     "wall_s": round(rep["simulation"]["wall_seconds"] + rep["simulation"]["precondition_wall_seconds"], 1)})
    return rows


def log_blocks(rep):
    """The update space in blocks: the log (or SUPERBLOCK's cap), ceil(log_share x blocks) as the
    FTLs size it (fw/ftl/hybrid/hybrid_params.cpp, superblock.cpp), from the effective parameters."""
    eff = rep["platform"]["effective"]
    if "ftl.log_share" not in eff:
        return ""
    planes = eff["ftl.segment_planes"]
    g = lambda k: eff[k]
    blocks = g("geometry.channels") * g("geometry.ways") * g("geometry.dies_per_way") * g("geometry.planes_per_die") \
        * g("geometry.blocks_per_plane") // planes
    return math.ceil(eff["ftl.log_share"] * blocks)


def pressure(rep):
    """Written footprint / log, both in pages."""
    lb = log_blocks(rep)
    eff = rep["platform"]["effective"]
    return ratio(rep["workload"]["written_footprint_pages"], lb * eff["ftl.segment_planes"] * eff["geometry.pages_per_block"])


def character(rep_last):
    """Share of LAST's log pages from large requests, and of random log pages that were hot."""
    seq = metric(rep_last, "sequential_log_writes") + metric(rep_last, "sequential_misfits")
    hot, cold = metric(rep_last, "hot_log_writes"), metric(rep_last, "cold_log_writes")
    host = metric(rep_last, "host_pages_written")
    return ratio(seq, host), ratio(hot, hot + cold)


def write_markdown(args, r, traces, sizes, with_default):
    out = repro.report_header("LAST", "last", args.quick)
    w = out.append
    w("## Setup: the paper's configuration beside ours\n")
    w(table(["", "paper", "ours", "why"], [
        ["flash", "Samsung large-block NAND (Table 1): 2 KiB pages, 64 per block, tR 25 us, tPROG 200 us, "
         "tBERS 2 ms", "the same, one chip (`platforms/single_chip_1g.yaml`), single physical blocks "
         "(`segment_planes=1`)", "the paper's"],
        ["capacity", "32 GB", "sized per trace so that its written footprint is >= 10x the log "
         f"(at least {MIN_BLOCKS} blocks, LAST's minimum of 4 log blocks)", "the paper's desktop traces "
         "were far larger than its log; the shared traces are small, so the drive shrinks instead"],
        ["update space", "512 MB log (1.56%), 32 MB (1/16) sequential buffer", f"log_share {LOG_SHARE} for "
         "every hybrid (SUPERBLOCK: the blocks its superblocks hold beyond N, together), LAST's sequential "
         "buffer 1/16 of it", "equal footing"],
        ["LAST threshold", "4 KiB (8 sectors) on 2 KiB pages", "2 pages (`size_threshold_pages=2`) = 4 KiB",
         "the paper's"],
        ["sequential log blocks", "written in order (switch or partial merges only, Fig. 6)",
         "in page order from offset 0; misfits to the random buffer", "section 3.3"],
        ["drive state", "not stated", "sequential fill of the logical space", "every data block exists"],
        ["traces", "Windows XP notebook and desktop PCs; TPC-C", "TPC-C excerpt and every shared trace with "
         "writes (MSR rsrch_1, hm_0, wdev_1, mds_0, proj_0; DiskSim ascii; YCSB on ext4)", "the desktop "
         "traces were never published; WebSearch has 4 writes"],
        ["GC overhead", "copies and erases x Table 1 times", "copies x (tR + tPROG) + padding x tPROG + "
         "erases x tBERS", "padding: pages never written but programmed in order"],
    ]))
    w("")
    w("## The drives and how much pressure each trace puts on the log\n")
    rows = []
    for t in traces:
        last = r[f"chip-{t}-last"]
        seq_share, hot_share = character(last)
        looks = "yes" if 0.1 <= seq_share <= 0.9 and hot_share >= 0.2 else "no"
        rows.append([t, sizes[t], fmt(sizes[t] * 128 / 1024, 1), last["workload"]["written_footprint_pages"],
                     log_blocks(last), fmt(pressure(last), 1), fmt(seq_share), fmt(hot_share), looks])
    w(table(["trace", "blocks", "drive MiB", "footprint pages", "log blocks", "footprint / log",
             "LAST: large-request share of pages", "hot share of random pages", "like the paper's workloads"], rows))
    w("\n\"Like the paper's\" = a mix of large and small writes (10-90% of pages from requests over the "
      "threshold) with temporal locality (at least 20% of the random buffer's pages rewritten within k): "
      "the mixed sequential/random desktop workload the paper describes.\n")

    w("## Fig. 8: GC overhead normalised to SUPERBLOCK\n")
    rows, bars = [], {}
    for t in traces:
        base = gc_overhead_ms(r[f"chip-{t}-superblock"])
        cells = [ratio(gc_overhead_ms(r[f"chip-{t}-{f}"]), base) for f in HYBRIDS + ["page_mapping"]]
        for f, c in zip(HYBRIDS, cells):
            bars[(t, f)] = c if c == c else 0
        rows.append([t, fmt(base, 0), *[fmt(c) for c in cells],
                     f"{min(repro.kept_up(r[f'chip-{t}-{f}']) for f in HYBRIDS + ['page_mapping']):.0%}"])
    w(table(["trace", "SUPERBLOCK ms", *[f"{f} / superblock" for f in HYBRIDS], "page mapping / superblock",
             "lowest served / offered"], rows))
    w("\n\"Lowest served / offered\": the smallest share of the trace's request rate one of the FTLs kept up with "
      "(open loop). GC overhead is work done, which falling behind the trace does not change; latencies would "
      "measure the queue.\n")
    repro.bar_plot(os.path.join(args.out, "last_fig8.png"), "GC overhead / SUPERBLOCK", list(traces), HYBRIDS, bars,
                   "normalised GC overhead")
    w("\n![Fig. 8](last_fig8.png)\n")

    w("## Claims of section 4, one row each\n")
    rows = []
    ov = lambda t, f: gc_overhead_ms(r[f"chip-{t}-{f}"])
    for t in traces:
        lr = ratio(ov(t, "last"), ov(t, "superblock"))
        worst = max(HYBRIDS, key=lambda f: ov(t, f))
        rows.append([t, "LAST 46-67% less GC overhead than SUPERBLOCK (Fig. 8)", "0.33-0.54", fmt(lr),
                     judge(lr, 0.33, 0.54, "<")])
        rows.append([t, "BAST the worst (Fig. 8)", "bast", worst, "agrees" if worst == "bast" else "differs"])
        fb = ov(t, "fast") < ov(t, "bast")
        fl = ov(t, "fast") > ov(t, "last")
        rows.append([t, "FAST better than BAST, worse than LAST", "yes, yes", f"{'yes' if fb else 'no'}, {'yes' if fl else 'no'}",
                     "agrees" if fb and fl else "differs"])
        sf = ov(t, "superblock") < ov(t, "fast")
        rows.append([t, "SUPERBLOCK better than FAST", "yes", "yes" if sf else "no", "agrees" if sf else "differs"])
        best = min(HYBRIDS, key=lambda f: ov(t, f))
        rows.append([t, "LAST the least GC overhead of all (Fig. 8, TPC-C text)", "last", best,
                     "agrees" if best == "last" else "differs"])
        m = merges(r[f"chip-{t}-last"])
        dead = ratio(m["dead"], m["dead"] + m["full"])
        rows.append([t, "LAST: many random-buffer reclaims are dead blocks (TPC-C text)", "many",
                     f"{m['dead']:,} of {m['dead'] + m['full']:,} ({fmt(dead)})",
                     "agrees" if dead >= 0.5 else "differs" if dead == dead else "not comparable"])
        sw = ratio(m["switch"], m["switch"] + m["partial"])
        rows.append([t, "LAST: sequential-buffer merges mostly switch (TPC-C text)", "most",
                     f"{m['switch']:,} of {m['switch'] + m['partial']:,} ({fmt(sw)})",
                     "agrees" if sw >= 0.5 else "differs" if sw == sw else "not comparable"])
    w(table(["trace", "claim", "paper", "ours", ""], rows))
    w("")

    w("## Fig. 9: merges by kind (share of all merges) and dead blocks\n")
    rows = []
    for t in traces:
        for f in HYBRIDS:
            m = merges(r[f"chip-{t}-{f}"])
            total = m["switch"] + m["partial"] + m["full"]
            share = lambda k: fmt(ratio(m[k], total))
            rows.append([t, f, total, share("switch"), share("partial"), share("full"), m["dead"],
                         fmt(gc_overhead_ms(r[f"chip-{t}-{f}"]), 0)])
    w(table(["trace", "ftl", "merges", "switch", "partial", "full", "dead blocks", "GC overhead ms"], rows))
    w("\nPaper: BAST mostly full merges; FAST about half full, half partial; SUPERBLOCK and LAST mostly switch "
      "and partial; LAST has many dead blocks and far fewer full merges. Our SUPERBLOCK maps pages inside a "
      "superblock, so its reclaims are switch (no valid page) or partial (copies) by construction.\n")

    w(f"## Ablations of LAST (GC overhead / LAST at the paper's settings; stand-ins of {args.detail_writes:,} writes)\n")
    abl = [a for a in ABLATIONS if f"detail-{next(iter(traces))}-{a}" in r]
    dov = lambda t, f: gc_overhead_ms(r[f"detail-{t}-{f}"])
    rows = []
    for t in traces:
        base = dov(t, "last")
        rows.append([t, *[f"{fmt(ratio(dov(t, a), base))} ({merges(r[f'detail-{t}-{a}'])['full']} full)" for a in abl]])
    w(table(["trace", *abl], rows))
    w("\n`last-64k`: threshold 32 pages (64 KiB, ADAPT's upper bound). `last-close`: a misfit closes its "
      "sequential block. `last-1seq`: one sequential block, as FAST.\n")

    if with_default:
        w(repro.default_part_link("last"))
    loops = [t for t in traces if f"loop-{t}-last" in r]
    if loops:
        w("## The excerpts looped, as this reproduction ran them before (a comparison, not the headline)\n")
        w("GC overhead (ms) of each hybrid with the excerpt replayed back to back (`--repeat`, the passes in "
          "`last.py`'s TRACES) on a drive sized by the headline's rule from the excerpt's own footprint (as these "
          "runs were sized before the stand-ins), beside the stand-in's on its own drive.\n")
        rows = []
        for t in loops:
            rows.append([t, r[f"loop-{t}-last"]["host"]["writes"], *[fmt(gc_overhead_ms(r[f"loop-{t}-{f}"]), 0) for f in HYBRIDS],
                         r[f"chip-{t}-last"]["host"]["writes"], *[fmt(gc_overhead_ms(r[f"chip-{t}-{f}"]), 0) for f in HYBRIDS]])
        w(table(["trace", "looped writes", *[f"looped {f}" for f in HYBRIDS], "stand-in writes",
                 *[f"stand-in {f}" for f in HYBRIDS]], rows))
        w("")
    repro.write_report(args.out, "last", out)


def write_default_markdown(args, r, traces):
    """last-default.md: every hybrid and page mapping at its defaults on the default platform."""
    def cells(wt, rep):
        """The FTL alone (wt), then behind the default write buffer (rep); a run that failed: why."""
        out = []
        if repro.failed(wt):
            out += repro.failure_cells(wt, 7)
        else:
            m = merges(wt)
            out += [m["switch"], m["partial"], m["full"], m["dead"], repro.ftl_waf(wt),
                    fmt(wt["host"]["latency_us"]["mean"], 0), f"{repro.kept_up(wt):.0%}"]
        if repro.failed(rep):
            return out + repro.failure_cells(rep, 5)
        return out + [repro.ftl_waf(rep), repro.left_in_buffer(rep), fmt(rep["host"]["latency_us"]["mean"], 0),
                      f"{repro.kept_up(rep):.0%}", fmt(rep["simulation"]["wall_seconds"], 1)]

    rows = []
    for t in traces:
        for f in HYBRIDS + ["page_mapping"]:
            wt, rep = r[f"defwt-{t}-{f}"], r[f"default-{t}-{f}"]
            rows.append([t, f, *cells(wt, rep)])
            if repro.failed(wt) or repro.failed(rep):  # the labelled run with more overprovisioning
                rows.append([t, f"{f} (ftl.overprovisioning {repro.RETRY_OVERPROVISIONING})",
                             *cells(r.get(repro.retried(f"defwt-{t}-{f}"), wt), r.get(repro.retried(f"default-{t}-{f}"), rep))])
    repro.write_default_report(
        args, "LAST", "last", "Every hybrid at its defaults on `platforms/default.yaml` (no options: the default "
        f"sequential fill, then the trace's stand-in of {args.detail_writes:,} writes)",
        ["trace", "ftl", "switch", "partial", "full", "dead", "WAF", "mean us", "served / offered", "buffered: FTL WAF",
         "pages left in the buffer", "buffered: mean us", "buffered: served / offered", "wall s"], rows,
        "The FTL's own behaviour with writes reaching it as they come (`firmware.write_buffer=off`: switch ... mean "
        "us), then the product's default, a 64 MiB block_lru write buffer in front (\"-\": no page reached the FTL; "
        "the shared traces mostly fit in the buffer). " + repro.RETRY_NOTE)

if __name__ == "__main__":
    main()
