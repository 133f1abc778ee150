#!/usr/bin/python3
"""MNK (Shim, Park, Park: a configurable hybrid FTL for multi-channel SSDs) reproduced: MNK,
MCSplit and SubGroup on an 8-channel x 4-way SSD of the paper's era (platforms/mnk_8x4_slc.yaml),
each with the write buffer off and managed by block-level LRU as in the paper; Fig. 7 (erases,
valid-page copies, mean read and write latency), the N/K sweep at M = 8 (Fig. 5), the RECYCLE_TH
sweep (Fig. 6) and the erases of each of the 32 modules (Fig. 8), on drives sized so that each
trace's written footprint is many times the log, and the same FTLs on the default platform.

Writes bench/reproductions/mnk.{md,csv} and mnk_*.png from runs it makes (reports under
results/reproductions/mnk). --quick: the bundled hm_0 trace, Fig. 7 only.
Needs a built ssdsim (cmake --preset default && cmake --build --preset default).
"""
import math
import os

import repro
from repro import fmt, judge, metric, ratio, table

CHIP = os.path.join(repro.ROOT, "platforms", "mnk_8x4_slc.yaml")
DEFAULT = repro.DEFAULT_PLATFORM
LOG_SHARE = 0.03
PRESSURE = 10
MIN_BLOCKS_PER_PLANE = 72  # 3% of 32 x 72 / 8 = 9 striped log blocks: one group's K / M = 8, and one more
M = 8
BUFFER_SHARE = 0.00390625   # 4 MiB of the 1 GiB DRAM: 2,048 pages of 2 KiB (the paper gives no size)
TRACES = {
    "tpcc": ("mqsim/tpcc-small.trace", 3, 20.0, []),  # the OLTP role (random small writes)
    "rsrch_1": ("msr/rsrch_1.csv", 1, 1.0, []),
    "hm_0": ("msr/hm_0.csv", 5, 1.0, []),
    "disksim": ("disksim/ascii.trace", 1, 1.0, []),
    "ycsb": ("blkparse/ycsb-ext4.txt", 1, 1.0, ["--skip-bad-lines"]),
    "desktop_mix": (os.path.join(repro.ROOT, "workloads", "desktop_mix.yaml"), 1, 1.0, []),
}
QUICK_TRACES = {"hm_0": (os.path.join(repro.ROOT, "workloads", "traces", "hm_0.csv"), 2, 1.0, [])}
MISSING = "OLTP (UMass/SPC Financial), GENERAL and SYSMARK (Windows laptop)"
FTLS = ["mnk", "mcsplit", "subgroup"]
NK = [(4, 16), (8, 32), (16, 32), (16, 64), (32, 64)]  # Fig. 5 at M = 8 (K <= the 72-block log of the smallest drive)
RECYCLE = [0.0, 0.1, 0.2, 0.4, 0.6]                     # Fig. 6 at (8, 32, 64)
BUFFERS = {"off": ["--set", "firmware.write_buffer=off"],
           "bplru": ["--set", "firmware.write_buffer=block_lru", "--set", f"firmware.write_buffer_dram_share={BUFFER_SHARE}"]}


def ftl_args(ftl, n=32, k=64, recycle=0.1):
    a = ["--ftl", ftl, "--set", f"ftl.segment_planes={M}", "--set", f"ftl.log_share={LOG_SHARE}"]
    if ftl == "mnk":
        a += ["--set", f"ftl.n={n}", "--set", f"ftl.k={k}", "--set", f"ftl.recycle_threshold={recycle}"]
    return a


def copies(rep):
    """Valid pages copied: by merges (MNK, MCSplit) or by superblock GC (SubGroup)."""
    return metric(rep, "merge_copies") + metric(rep, "gc_copies")


def erases(rep):
    return metric(rep, "erases")


def write_us(rep):
    return rep["host"]["write_latency_us"]["mean"]


def read_us(rep):
    return rep["host"]["read_latency_us"]["mean"]


def module_erases(rep):
    """Erases per module (die), in module order (channel-fastest, as the paper numbers them)."""
    dies = {}
    for c, ch in enumerate(rep["hardware"]["channels"]):
        for d, die in enumerate(ch["dies"]):
            dies[(d, c)] = die["erases"]
    return [dies[k] for k in sorted(dies)]


def main():
    args = repro.arguments(__doc__, "mnk")
    traces = QUICK_TRACES if args.quick else TRACES
    detail = None if args.quick else args.detail_writes
    full, short = repro.written_footprints(args, traces, CHIP, 2048)
    # blocks per plane: footprint (2 KiB pages) >= PRESSURE x the log (3% of 32 planes' blocks)
    per_plane = lambda pages: max(MIN_BLOCKS_PER_PLANE, math.ceil(pages / 64 / PRESSURE / LOG_SHARE / 32))
    sizes = {t: per_plane(full[t]) for t in traces}
    dsizes = {t: per_plane(short[t]) for t in traces}
    loop_sizes = {} if args.quick else {t: per_plane(p) for t, p in repro.excerpt_footprints(args, traces, 2048).items()}
    jobs = {}
    for t in traces:
        chip = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={sizes[t]}", *repro.trace_args(args, traces, t),
                "--precondition", "fill"]
        dchip = chip if args.quick else ["-p", CHIP, "--set", f"geometry.blocks_per_plane={dsizes[t]}",
                                         *repro.trace_args(args, traces, t, writes=detail), "--precondition", "fill"]
        # The headline with the paper's buffer on the long stand-ins; the ablation without a buffer
        # on the shorter ones: without one, every hybrid's merges copy whole blocks for nearly
        # every write (TPC-C, MNK: a million writes had not finished after 70 CPU minutes).
        for f in FTLS:
            jobs[f"chip-{t}-bplru-{f}"] = [*chip, *BUFFERS["bplru"], *ftl_args(f)]
            jobs[f"chip-{t}-off-{f}"] = [*dchip, *BUFFERS["off"], *ftl_args(f)]
        if args.quick:
            continue
        # The N/K and RECYCLE_TH sweeps (twenty runs a trace) on the shorter stand-ins, with the
        # paper's buffer.
        for n, k in NK:
            jobs[f"detail-{t}-bplru-nk{n}x{k}"] = [*dchip, *BUFFERS["bplru"], *ftl_args("mnk", n, k)]
        for th in RECYCLE:
            jobs[f"detail-{t}-bplru-th{th}"] = [*dchip, *BUFFERS["bplru"], *ftl_args("mnk", recycle=th)]
        for f in FTLS:
            jobs[f"default-{t}-{f}"] = ["-p", DEFAULT, "--ftl", f, *repro.trace_args(args, traces, t, writes=detail)]
        if not repro.is_synthetic(traces, t):  # the excerpt looped, as before: the labelled comparison
            looped = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={loop_sizes[t]}",
                      *repro.trace_args(args, traces, t, looped=True), "--precondition", "fill", *BUFFERS["bplru"]]
            for f in FTLS:
                jobs[f"loop-{t}-bplru-{f}"] = [*looped, *ftl_args(f)]
    # The headline first (Fig. 7 on every trace), then the looped comparison and the sweeps: a
    # run cut short leaves the most useful reports behind (--reuse picks them up).
    order = ["chip", "loop", "detail", "default"]
    jobs = dict(sorted(jobs.items(), key=lambda job: order.index(job[0].split("-")[0])))
    paper_jobs, default_jobs = repro.split_matrix(args, jobs)
    if paper_jobs:
        r = repro.run_matrix(args, paper_jobs)
        repro.write_csv(os.path.join(args.out, "mnk.csv"), csv_rows(r))
        write_markdown(args, r, traces, sizes, dsizes, with_default=not (args.quick or args.no_default_platform))
    if default_jobs:
        r = repro.run_default_matrix(args, default_jobs)
        repro.write_csv(os.path.join(args.out, "mnk-default.csv"), csv_rows(r))
        write_default_markdown(args, r, traces)


def csv_rows(r):
    rows = []
    for name, rep in sorted(r.items()):
        if repro.failed(rep):
            rows.append({"run": name, "failed": repro.failed(rep)})
            continue
        rows.append({"run": name, "erases": erases(rep), "copies": copies(rep), "waf": repro.ftl_waf(rep),
                     "write_us": round(write_us(rep), 1), "read_us": round(read_us(rep), 1),
                     "recycled": metric(rep, "recycled_log_blocks"), "group_reclaims": metric(rep, "group_reclaims"),
                     "wall_s": round(rep["simulation"]["wall_seconds"], 1)})
    return rows


def write_markdown(args, r, traces, sizes, dsizes, with_default):
    out = repro.report_header("MNK", "mnk", args.quick)
    w = out.append
    w("## Setup: the paper's configuration beside ours\n")
    w(table(["", "paper", "ours", "why"], [
        ["SSD", "8 channels x 4 ways = 32 modules; NAND timings and capacity not given",
         "`platforms/mnk_8x4_slc.yaml`: 32 modules of large-block SLC (2 KiB pages, 64 per block, tR 25 us, "
         "tPROG 200 us, tBERS 1.5 ms, 40 MT/s bus)", "a part of the paper's era (its section I: 2 KiB pages, "
         "128 KiB blocks)"],
        ["capacity", "not given", f"sized per trace so that the footprint is >= {PRESSURE}x the 3% log "
         f"(at least {MIN_BLOCKS_PER_PLANE} blocks per module)", "the log must fill for GC to matter"],
        ["write buffer", "block-level LRU, size not given", f"off, and block_lru of {BUFFER_SHARE * 1024:.0f} MiB "
         "(2,048 pages)", "both, to separate the FTL from the buffer"],
        ["MNK", "(M, N, K, RECYCLE_TH) = (8, 32, 64, 0.1)", "the same", "the paper's"],
        ["MCSplit", "striped, exclusive log blocks, static module allocation",
         "M = 8, one log block per logical block, static allocation (`fw/ftl/hybrid/mnk.h`)",
         "its paper was not available"],
        ["SubGroup", "sub-grouped superblocks: hot and cold data in two sub-groups, the hot group on its own modules",
         "superblocks of 4 logical blocks striped over M = 8 modules, recently rewritten pages in the hot "
         "sub-group, hot blocks on 1 of 4 module groups (`fw/ftl/hybrid/superblock.h`)",
         "its full text was not available (its abstract and the MNK paper)"],
        ["log space", "not given", f"{LOG_SHARE:.0%} of the blocks for every scheme", "equal footing"],
        ["traces", "OLTP (Financial, ~5.3 KB random writes), GENERAL, SYSMARK",
         f"stand-ins of {args.standin_writes:,} write requests reconstructed from the excerpts of TPC-C (the OLTP "
         "role), MSR rsrch_1 and hm_0, DiskSim and YCSB on ext4 (`ssdsim standin`: the ADAPT report shows their "
         "statistics beside the excerpts'); `workloads/desktop_mix.yaml`, synthetic, marked as such",
         f"missing: {MISSING}"],
    ]))
    w("")
    w("## The drives\n")
    w(table(["trace", "blocks per module", "drive MiB", "footprint pages", "ablation: blocks per module",
             "drive MiB", "footprint pages"],
            [[t, sizes[t], fmt(sizes[t] * 32 * 128 / 1024, 0), r[f"chip-{t}-bplru-mnk"]["workload"]["written_footprint_pages"],
              dsizes[t], fmt(dsizes[t] * 32 * 128 / 1024, 0), r[f"chip-{t}-off-mnk"]["workload"]["written_footprint_pages"]]
             for t in traces]))
    w("")
    for b, title in (("bplru", "block-level LRU write buffer, as the paper ran them (the headline)"),
                     ("off", "write buffer off (an ablation: the FTLs alone, on the "
                             f"{args.detail_writes:,}-write stand-ins and their drives)")):
        w(f"## Fig. 7: MNK, MCSplit and SubGroup, {title}\n")
        rows = []
        for t in traces:
            for f in FTLS:
                rep = r[f"chip-{t}-{b}-{f}"]
                rows.append([t, f, erases(rep), copies(rep), fmt(write_us(rep), 0), fmt(read_us(rep), 0),
                             repro.ftl_waf(rep), metric(rep, "recycled_log_blocks"), f"{repro.kept_up(rep):.0%}"])
        w(table(["trace", "ftl", "erases", "valid-page copies", "write us", "read us", "WAF", "recycled",
                 "served / offered"], rows))
        w(f"\n\"served / offered\": the share of the trace's request rate the drive kept up with; below "
          f"{repro.KEPT_UP:.0%} it fell behind the trace, its latencies measure the growing queue, and the latency "
          "claims below leave that trace out.\n")
        w("")
        claims = []
        for what, measure, paper in (("erases", erases, 0.43), ("valid-page copies", copies, 0.66),
                                     ("mean write latency", write_us, 0.81), ("mean read latency", read_us, 0.84)):
            best, where = None, None
            for t in [t for t in traces if not repro.is_synthetic(traces, t)]:
                for base in ("mcsplit", "subgroup"):
                    pair = (r[f"chip-{t}-{b}-mnk"], r[f"chip-{t}-{b}-{base}"])
                    if "latency" in what and min(repro.kept_up(x) for x in pair) < repro.KEPT_UP:
                        continue
                    cut = 1 - ratio(measure(pair[0]), measure(pair[1]))
                    if cut == cut and (best is None or cut > best):
                        best, where = cut, f"{t}, vs {base}"
            claims.append([f"MNK's largest cut in {what} (synthetic workloads left out)", f"{paper:.0%}", f"{best:.0%} ({where})" if best is not None else "-",
                           judge(1 - best, 1 - paper - 0.1, 1 - paper + 0.1, "<") if best is not None else "not comparable"])
        w(table(["claim (Fig. 7)", "paper", "ours", ""], claims))
        w("")
    loops = [t for t in traces if f"loop-{t}-bplru-mnk" in r]
    if loops:
        w("## The excerpts looped, as this reproduction ran them before (a comparison, not the headline)\n")
        rows = []
        for t in loops:
            for f in FTLS:
                lp, st = r[f"loop-{t}-bplru-{f}"], r[f"chip-{t}-bplru-{f}"]
                rows.append([t, f, lp["host"]["writes"], erases(lp), copies(lp), fmt(write_us(lp), 0),
                             st["host"]["writes"], erases(st), copies(st), fmt(write_us(st), 0)])
        w(table(["trace", "ftl", "looped writes", "erases", "copies", "write us", "stand-in writes", "erases",
                 "copies", "write us"], rows))
        w("")
    t0 = "tpcc" if "tpcc" in traces else next(iter(traces))
    for b, title in (("off", "write buffer off"), ("bplru", "block-level LRU write buffer")):
        if f"detail-{t0}-{b}-nk4x16" not in r:
            continue
        w(f"## Fig. 5: N and K at M = 8, {title} (stand-ins of {args.detail_writes:,} writes)\n")
        rows = []
        for t in traces:
            for n, k in NK:
                rep = r[f"detail-{t}-{b}-nk{n}x{k}"]
                rows.append([t, f"({M}, {n}, {k})", erases(rep), copies(rep), fmt(write_us(rep), 0), fmt(read_us(rep), 0)])
        w(table(["trace", "(M, N, K)", "erases", "copies", "write us", "read us"], rows))
        w("\nPaper: on GENERAL up to 40.9% fewer erases and 36.5% fewer copies as N and K grow; on OLTP the "
          "latencies rise with N and K.\n")
        w(f"## Fig. 6: RECYCLE_TH at (8, 32, 64), {title} (stand-ins of {args.detail_writes:,} writes)\n")
        rows = []
        for t in traces:
            base = r[f"detail-{t}-{b}-th0.0"]
            for th in RECYCLE:
                rep = r[f"detail-{t}-{b}-th{th}"]
                rows.append([t, th, erases(rep), fmt(ratio(erases(rep), erases(base))), copies(rep),
                             fmt(ratio(copies(rep), copies(base))), metric(rep, "recycled_log_blocks"),
                             fmt(write_us(rep), 0), fmt(read_us(rep), 0)])
        w(table(["trace", "RECYCLE_TH", "erases", "/ TH 0", "copies", "/ TH 0", "recycled", "write us", "read us"], rows))
        w("\nPaper: TH 0.1 gives about 21% fewer erases with 1% more copies; larger values add copies and "
          "latency.\n")
    for b, title in (("off", "write buffer off"), ("bplru", "block-level LRU write buffer")):
        w(f"## Fig. 8: erases of each module, {title}\n")
        lines = {f: module_erases(r[f"chip-{t0}-{b}-{f}"]) for f in FTLS}
        rows = []
        for f in FTLS:
            e = lines[f]
            mean = sum(e) / len(e) if e else 0
            rows.append([f, sum(e), fmt(mean, 0), max(e), fmt(ratio(max(e), mean)), min(e)])
        w(table(["ftl", f"erases ({t0})", "mean per module", "max", "max / mean", "min"], rows))
        repro.line_plot(os.path.join(args.out, f"mnk_fig8_{b}.png"), f"Erases per module ({t0}, {title})",
                        list(range(1, len(lines[FTLS[0]]) + 1)), lines, "module", "erases", logx=False)
        w(f"\n![Fig. 8](mnk_fig8_{b}.png)\n")
    if with_default:
        w(repro.default_part_link("mnk"))
    repro.write_report(args.out, "mnk", out)


def write_default_markdown(args, r, traces):
    """mnk-default.md: the same FTLs at their defaults on the default platform."""
    rows = []
    def cells(rep):
        if repro.failed(rep):
            return repro.failure_cells(rep, 7)
        return [erases(rep), copies(rep), repro.ftl_waf(rep), repro.left_in_buffer(rep), fmt(write_us(rep), 0),
                fmt(read_us(rep), 0), f"{repro.kept_up(rep):.0%}"]

    for t in traces:
        for f in FTLS:
            name = f"default-{t}-{f}"
            rows.append([t, f, *cells(r[name])])
            if repro.failed(r[name]):  # the labelled run with more overprovisioning
                rows.append([t, f"{f} (ftl.overprovisioning {repro.RETRY_OVERPROVISIONING})",
                             *cells(r.get(repro.retried(name), r[name]))])
    repro.write_default_report(
        args, "MNK", "mnk", "MNK, MCSplit and SubGroup at their defaults on `platforms/default.yaml` (the product's "
        f"write buffer on; stand-ins of {args.detail_writes:,} writes)",
        ["trace", "ftl", "erases", "copies", "FTL WAF", "pages left in the buffer", "write us", "read us",
         "served / offered"], rows, repro.RETRY_NOTE)

if __name__ == "__main__":
    main()
