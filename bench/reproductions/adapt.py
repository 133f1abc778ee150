#!/usr/bin/python3
"""ADAPT (Wang & Wong, workload-sensitive flash management) reproduced: FASTer, DFTL, WAFTL and
ADAPT on the paper's flash (Table II: SLC, 2 KiB pages, 64-page blocks, read 130.9 us, program
405.9 us, erase 2 ms, one chip as FlashSim serialises), a 3% log (WAFTL: a 3% buffer zone), each
trace replayed as a stand-in of a million write requests reconstructed from its excerpt (the
paper's traces hold "at least a million"; looping an excerpt rewrites every page once a pass),
on drives sized so that its written footprint is many times the log; the paper's elapsed time
(the flash's accumulated operation time), erase and write counts normalised to FASTer (Figs.
6-8) with the paper's sum bar as the headline, with and without the synthetic workloads; a sweep
of drive sizes putting the random area at 0.5-8 times the HAT's history; log space 3/5/10% (Fig.
9), the ablations ADAPT-sw (Fig. 10), ADAPT-2/-32 (Fig. 11), HAT size (Fig. 14), tau (Figs.
15-17), ADAPT-nd (Fig. 18), Table III (prediction hit rate, aggregated moves), the excerpts
looped as before (a labelled comparison), and the same FTLs on the default multi-channel
platform.

Writes bench/reproductions/adapt.{md,csv} and adapt_*.png from runs it makes (reports under
results/reproductions/adapt, stand-ins under results/reproductions/standins). --quick: the bundled
hm_0 trace looped, a few runs, no default platform. Needs a built ssdsim (cmake --preset default &&
cmake --build --preset default).
"""
import math
import os

import repro
from repro import fmt, judge, metric, ratio, table
from bench_common import effective_number

CHIP = os.path.join(repro.ROOT, "platforms", "flashsim_slc_chip.yaml")
DEFAULT = os.path.join(repro.ROOT, "platforms", "default.yaml")
LOG_SHARE = 0.03       # the paper's log space (and WAFTL's buffer zone)
SPARE = 0.04           # over-provisioning beyond the log: free pool (and WAFTL's PMBs)
PRESSURE = 10          # drives sized so that the written footprint is >= PRESSURE x the log
MIN_BLOCKS = 200       # 6 log blocks; and DFTL needs 8 spare blocks for its GC threshold and reserve
# name: (file, passes, time scale, extra arguments)
TRACES = {
    "tpcc": ("mqsim/tpcc-small.trace", 3, 20.0, []),
    "hm_0": ("msr/hm_0.csv", 5, 1.0, []),
    "mds_0": ("msr/mds_0.csv", 10, 1.0, []),
    "rsrch_1": ("msr/rsrch_1.csv", 1, 1.0, []),
    "wdev_1": ("msr/wdev_1.csv", 10, 1.0, []),
    "proj_0": ("msr/proj_0.csv", 10, 1.0, []),
    "disksim": ("disksim/ascii.trace", 1, 1.0, []),
    "ycsb": ("blkparse/ycsb-ext4.txt", 1, 1.0, ["--skip-bad-lines"]),
    # Synthetic: large sequential and hot small random writes, the mix ADAPT adapts to
    "desktop_mix": (os.path.join(repro.ROOT, "workloads", "desktop_mix.yaml"), 1, 1.0, []),
    # Synthetic: four interleaved sequential streams of sub-block requests beside hot random writes,
    # the multi-tasking case for which ADAPT grows its sequential area
    "multistream_mix": (os.path.join(repro.ROOT, "workloads", "multistream_mix.yaml"), 1, 1.0, []),
}
QUICK_TRACES = {"hm_0": (os.path.join(repro.ROOT, "workloads", "traces", "hm_0.csv"), 2, 1.0, [])}
MISSING = "SPC1 (Financial), prn_0, prxy_0, rsrch_0, stg_0, ts_0, web_0"
# The random area against the HAT's history (in write requests): Table III's hit rates depend on
# it more than on anything else, and the footprint rule puts some traces far below 1 and others far
# above; each trace is also run on drives that put it at these ratios (section "Drive size").
HAT_RATIOS = [0.5, 1, 2, 4, 8]
FTLS = ["faster", "dftl", "waftl", "adapt"]
HAT_SIZES = [6, 512, 1024, 2048, 8192, 65536]  # Fig. 14's 512 B-2 KiB, plus one entry (no history) and larger
ABLATIONS = {  # ADAPT with one mechanism or parameter changed (section IV's names)
    "adapt-sw": ["--set", "ftl.adaptive_partition=false"],
    "adapt-2": ["--set", "ftl.adaptive_threshold=false", "--set", "ftl.sequential_threshold_pages=2"],
    "adapt-32": ["--set", "ftl.adaptive_threshold=false", "--set", "ftl.sequential_threshold_pages=32"],
    "adapt-nd": ["--set", "ftl.early_reuse=false"],
    # The readings issue 31 changed, one at a time and together (ADAPT as this reproduction ran it before)
    "misfit-ignore": ["--set", "ftl.misfit_delta=ignore"],
    "hat-key-base": ["--set", "ftl.hat_key=base"],
    "idle-keep": ["--set", "ftl.idle_interval=keep"],
    "old-readings": ["--set", "ftl.misfit_delta=ignore", "--set", "ftl.hat_key=base", "--set", "ftl.idle_interval=keep"],
    **{f"hat-{b}": ["--set", f"ftl.hat_bytes={b}"] for b in HAT_SIZES if b != 1024},
    **{f"tau-{t}": ["--set", f"ftl.aggregate_threshold_pages={t}"] for t in (40, 48, 52, 60, 64)},
}
QUICK_ABLATIONS = ["adapt-sw", "hat-6"]
LOG_SHARES = [0.05, 0.10]  # Fig. 9, beside the 3% of the main runs
TAUS = [40, 48, 52, 56, 60, 64]


def flash_ms(rep):
    """FlashSim's elapsed time: the operation time every die accumulated (reads, programs, erases
    and their transfers), summed over the dies; on one chip the paper's measure exactly."""
    eff = rep["platform"]["effective"]
    dies = eff["geometry.channels"] * eff["geometry.ways"] * eff["geometry.dies_per_way"]
    return rep["utilization"]["dies"]["mean"] * dies * rep["host"]["simulated_seconds"] * 1000


def ftl_args(ftl, blocks, log_share=LOG_SHARE, pages_per_block=64):
    """The FTL at the paper's settings on a drive of `blocks` blocks: log (or buffer zone) of
    log_share, the same over-provisioning beyond it for all; DFTL gets FASTer's mapping RAM."""
    a = ["--ftl", ftl, "--set", f"ftl.overprovisioning={log_share + SPARE:.4f}"]
    logical = math.floor(blocks * (1 - log_share - SPARE))
    log = math.ceil(log_share * blocks)
    mapping = 4 * logical + 4 * pages_per_block * log  # block map + log page map
    # The controller's SRAM holds that mapping RAM and the valid-page bitmap and counts beside it,
    # for every FTL alike: a chip sized to a long stand-in's footprint outgrows the platform's
    # 2 MiB, where DFTL's cache cannot live (and the hybrids' maps would spill to DRAM).
    sram_kib = max(2048, math.ceil((mapping + blocks * pages_per_block // 8 + 8 * blocks + (256 << 10)) / 1024))
    a += ["--set", f"sram.size_kib={sram_kib}"]
    if ftl == "dftl":
        a += ["--set", f"ftl.cmt_bytes={mapping}"]
    else:
        a += ["--set", f"ftl.log_share={log_share}"]
    return a


def main():
    args = repro.arguments(__doc__, "adapt")
    traces = QUICK_TRACES if args.quick else TRACES
    ablations = {a: ABLATIONS[a] for a in QUICK_ABLATIONS} if args.quick else ABLATIONS
    detail = None if args.quick else args.detail_writes
    # 1. Drives sized by each trace's written footprint (2 KiB pages), and the pages a write request
    #    writes (for the drive-size sweep), from a page-mapping probe of each detail stand-in.
    full, short = repro.written_footprints(args, traces, CHIP, 2048)
    blocks_for = lambda pages: max(MIN_BLOCKS, int(pages / 64 / PRESSURE / LOG_SHARE))
    sizes = {t: blocks_for(full[t]) for t in traces}
    dsizes = {t: blocks_for(short[t]) for t in traces}
    loop_sizes = {} if args.quick else {t: blocks_for(p) for t, p in repro.excerpt_footprints(args, traces, 2048).items()}
    probes = {} if args.quick else repro.run_matrix(args, {
        f"probe-detail-{t}": ["-p", CHIP, "--ftl", "page_mapping", *repro.trace_args(args, traces, t, writes=detail)]
        for t in traces}, sizing=True)
    # The default platform's geometry shrunk the same way (8 KiB pages, 256-page blocks, 64 planes).
    sized = {t: max(4, math.ceil(short[t] * 2048 / (8192 * 256) / PRESSURE / LOG_SHARE / 64)) for t in traces}
    sweep = {} if args.quick else {t: hat_ratio_sizes(probes[f"probe-detail-{t}"]) for t in traces}
    # 2. The headline matrix on each trace's chip (million-write stand-ins), then the detail
    #    matrix (ablations, sweeps, log shares, the default platform) on the shorter stand-ins.
    jobs = {}
    for t in traces:
        chip = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={sizes[t]}", *repro.trace_args(args, traces, t),
                "--precondition", "fill"]
        for f in FTLS:
            jobs[f"chip-{t}-{f}"] = [*chip, *ftl_args(f, sizes[t])]
        dchip = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={dsizes[t]}",
                 *repro.trace_args(args, traces, t, writes=detail), "--precondition", "fill"]
        for f in ("faster", "waftl", "adapt"):
            jobs[f"detail-{t}-{f}"] = [*dchip, *ftl_args(f, dsizes[t])]
        for a, extra in ablations.items():
            jobs[f"detail-{t}-{a}"] = [*dchip, *ftl_args("adapt", dsizes[t]), *extra]
        if args.quick:
            continue
        if not repro.is_synthetic(traces, t):  # the excerpt looped, as before: the labelled comparison
            looped = ["-p", CHIP, "--set", f"geometry.blocks_per_plane={loop_sizes[t]}",
                      *repro.trace_args(args, traces, t, looped=True), "--precondition", "fill"]
            for f in FTLS:
                jobs[f"loop-{t}-{f}"] = [*looped, *ftl_args(f, loop_sizes[t])]
        for ratio_target, blocks in sweep[t].items():
            if repro.is_synthetic(traces, t) and blocks < dsizes[t]:
                continue  # a job file's fixed address ranges need a drive that holds them (no smaller sizes)
            for f in ("faster", "adapt"):
                jobs[f"sweep-{t}-r{ratio_target}-{f}"] = [
                    "-p", CHIP, "--set", f"geometry.blocks_per_plane={blocks}",
                    *repro.trace_args(args, traces, t, writes=detail), "--precondition", "fill", *ftl_args(f, blocks)]
        for share in LOG_SHARES:
            for f in ("faster", "waftl", "adapt"):
                jobs[f"detail-{t}-{f}-log{round(share * 100)}"] = [*dchip, *ftl_args(f, dsizes[t], share)]
        if args.no_default_platform:
            continue
        replay = repro.trace_args(args, traces, t, writes=detail)
        for f in FTLS:
            jobs[f"default-{t}-{f}"] = ["-p", DEFAULT, "--ftl", f, *replay]
            jobs[f"defwt-{t}-{f}"] = ["-p", DEFAULT, "--ftl", f, "--set", "firmware.write_buffer=off", *replay]
            planes = 64  # default.yaml: 8 channels x 4 ways x 2 planes
            jobs[f"sized-{t}-{f}"] = ["-p", DEFAULT, "--set", f"geometry.blocks_per_plane={sized[t]}",
                                      *ftl_args(f, planes * sized[t], pages_per_block=256), "--set", "ftl.segment_planes=1",
                                      "--set", "firmware.write_buffer=off", *replay, "--precondition", "fill"]
    r = repro.run_matrix(args, jobs)

    rows = []
    for name, rep in sorted(r.items()):
        if name.startswith("probe-"):
            continue
        rows.append({"run": name, "requests": rep["host"]["requests"],
                     "footprint_pages": rep["workload"]["written_footprint_pages"],
                     "flash_ms": round(flash_ms(rep), 1), "erases": metric(rep, "erases"),
                     "programs": metric(rep, "flash_pages_programmed"), "waf": repro.ftl_waf(rep),
                     "mean_us": round(rep["host"]["latency_us"]["mean"], 1),
                     "second_chance": metric(rep, "second_chance_copies"),
                     "prediction_hit_rate": round(metric(rep, "prediction_hit_rate"), 3),
                     "second_chance_precision": round(metric(rep, "second_chance_precision"), 3),
                     "random_area_requests_per_hat_entry": round(hat_ratio(rep), 2) if "adapt" in name else "",
                     "aggregated_moves": metric(rep, "aggregated_moves"), "migrations": metric(rep, "migrations"),
                     "wall_s": round(rep["simulation"]["wall_seconds"] + rep["simulation"]["precondition_wall_seconds"], 1)})
    repro.write_csv(os.path.join(args.out, "adapt.csv"), rows)
    write_markdown(args, r, traces, sizes, ablations, sized if not args.quick else {}, sweep, dsizes)


def pages_per_write(rep):
    return ratio(metric(rep, "host_pages_written"), rep["host"]["writes"])


def hat_ratio(rep):
    """The random area in write requests (its pages / the mean write request's) over the HAT's
    entries: below 1 the HAT's history covers a whole rotation of the random area."""
    eff = rep["platform"]["effective"]
    entries = eff.get("ftl.hat_bytes", 1024) // 6
    return ratio(metric(rep, "random_area_blocks") * 64 / pages_per_write(rep), entries)


def hat_ratio_sizes(probe):
    """blocks_per_plane putting the random area (the log but its one sequential block, at the start)
    at each of HAT_RATIOS times the default HAT's 170 requests, for this trace's mean write request."""
    ppw = pages_per_write(probe)
    out = {}
    for target in HAT_RATIOS:
        random_blocks = target * 170 * ppw / 64
        out[target] = max(MIN_BLOCKS, math.ceil((random_blocks + 1) / LOG_SHARE))
    return out


def log_blocks(rep):
    eff = rep["platform"]["effective"]
    blocks = eff["geometry.channels"] * eff["geometry.ways"] * eff["geometry.dies_per_way"] * \
        eff["geometry.planes_per_die"] * eff["geometry.blocks_per_plane"] // eff["ftl.segment_planes"]
    return math.ceil(eff["ftl.log_share"] * blocks)


def norm(r, t, f, base="faster", measure=flash_ms, prefix="chip"):
    return ratio(measure(r[f"{prefix}-{t}-{f}"]), measure(r[f"{prefix}-{t}-{base}"]))


def total_norm(r, traces, f, measure, prefix="chip", base="faster"):
    """The paper's rightmost bar: the sum over the traces, normalised to FASTer's sum."""
    return ratio(sum(measure(r[f"{prefix}-{t}-{f}"]) for t in traces),
                 sum(measure(r[f"{prefix}-{t}-{base}"]) for t in traces))


def erases(rep):
    return metric(rep, "erases")


def programs(rep):
    return metric(rep, "flash_pages_programmed")


def mean_us(rep):
    return rep["host"]["latency_us"]["mean"]


def real(traces):
    return [t for t in traces if not repro.is_synthetic(traces, t)]


def write_markdown(args, r, traces, sizes, ablations, sized, sweep, dsizes):
    out = repro.report_header("ADAPT", "adapt", args.quick)
    w = out.append
    w("## Setup: the paper's configuration beside ours\n")
    w(table(["", "paper", "ours", "why"], [
        ["flash", "FlashSim, SLC (Table II): 2 KiB pages, 64 per block, read 130.9 us, program 405.9 us, "
         "erase 2 ms", "`platforms/flashsim_slc_chip.yaml`: one die, cell times 25/300 us plus 105.6 us on "
         "an 8-bit 20 MT/s bus = 130.6/405.6 us, erase 2 ms, single physical blocks", "the paper's"],
        ["elapsed time", "FlashSim's accumulated time of reads, writes and erases (and bus competition)",
         "the die's busy time (every operation, its transfers and waits for the bus)", "the same on one chip"],
        ["capacity", "each trace given one \"of more or less the same scale\"",
         f"sized per trace so that its written footprint is >= {PRESSURE}x the log (at least {MIN_BLOCKS} "
         "blocks: DFTL needs 8 spare blocks)", "the log must fill many times for merges to matter; the shared "
         "traces are small, so the drive shrinks"],
        ["log space", "3% of the data capacity; WAFTL's buffer zone 3%", f"`ftl.log_share={LOG_SHARE}` for "
         f"FASTer, ADAPT and WAFTL (its buffer zone); over-provisioning {LOG_SHARE + SPARE:.2f} for all",
         "equal footing"],
        ["sequential area", "1 block to 1/16 of the log", "the same (`max_sequential_blocks` = log/16, at "
         "least 1)", "the paper's"],
        ["ADAPT", "HAT 1 KiB, tau 56, interval 4,000 writes", "the same (defaults)", "the paper's"],
        ["DFTL", "the same RAM as FASTer", "`cmt_bytes` = FASTer's block map + log page map (4 bytes "
         "an entry)", "the paper's"],
        ["RAM", "all mapping tables in RAM", "in SRAM, every access charged to the core", "ours models it"],
        ["drive state", "not stated", "sequential fill of the logical space", "every data block exists"],
        ["traces", "SPC1, TPC-C, MSR hm_0, mds_0, prn_0, prxy_0, rsrch_0, stg_0, ts_0, web_0: \"at least a "
         "million\" write requests each", f"stand-ins of {args.standin_writes:,} write requests reconstructed from "
         "the shared excerpts of TPC-C, MSR hm_0, mds_0, rsrch_1, wdev_1, proj_0, DiskSim ascii and YCSB on ext4 "
         "(`ssdsim standin`, below); two synthetic workloads (`workloads/desktop_mix.yaml`, "
         "`multistream_mix.yaml`), marked as such", f"missing: {MISSING} (not among the shared traces); the "
         "excerpts hold 1,000-60,000 requests; WebSearch is read-only, no write-management test"],
    ]))
    w("")
    if not args.quick:
        w("## The stand-ins beside their excerpts\n")
        w("`ssdsim standin` learns each excerpt's requests (operation, size, gap, and whether it continues one "
          "of the last 8 requests, re-references an earlier start address at an LRU stack distance, or is new) "
          "and draws the stand-in from those distributions (the LRU stack-distance model of Mattson et al. 1970 "
          "and Spirn 1977, with Tarasov et al.'s per-request features, FAST 2012). Excerpt / stand-in:\n")
        rows = []
        for t in real(traces):
            st = repro.standin_stats(args, traces, t)
            e, g = st["excerpt"], st["standin"]
            pair = lambda k, d=2: f"{fmt(float(e[k]), d)} / {fmt(float(g[k]), d)}"
            rows.append([t, f"{e['requests']:,} / {g['requests']:,}", f"{e['writes']:,} / {g['writes']:,}",
                         pair("write_share"), pair("mean_size_kib", 1),
                         pair("sequential_share"), pair("reuse_share"), pair("cold_share"),
                         f"{e['reuse_distance']['p50']} / {g['reuse_distance']['p50']}",
                         f"{e['reuse_distance']['p90']} / {g['reuse_distance']['p90']}",
                         pair("written_pages_per_write"), fmt(ratio(g["duration_s"], e["duration_s"]), 0)])
        w(table(["trace", "requests", "writes", "write share", "mean KiB", "sequential share", "re-reference share",
                 "cold-miss share", "reuse distance p50", "p90", "written 4 KiB pages per write",
                 "stand-in duration / excerpt's"], rows))
        w("\nWhere they differ (`stimuli/trace_model.h`): a re-reference lands on whatever address sits at its "
          "LRU depth, so where the excerpt's writes mostly rewrote written data and its reads other data (hm_0) "
          "the stand-in's writes find new pages more often; requests are drawn independently, so a sequential "
          "run continues whatever came before it (rsrch_1, ycsb write fewer new pages per write); a shallow "
          "re-reference the stand-in's own runs would make sequential is redrawn (p50 a little deeper). "
          "A stand-in is a million write requests, or fewer where that would write more than "
          f"{repro.VOLUME_PAGES:,} distinct 4 KiB pages (YCSB: 72 new pages a write); one whose trace time would pass "
          "the year a trace reader accepts is made with its gaps compressed to fit (rsrch_1, wdev_1).\n")
        w("")
    w("## The drives and the pressure on the log\n")
    rows = []
    for t in traces:
        a = r[f"chip-{t}-adapt"]
        lb = log_blocks(a)
        rows.append([t, sizes[t], fmt(sizes[t] * 128 / 1024, 1), a["workload"]["written_footprint_pages"], lb,
                     max(1, lb // 16), fmt(ratio(a["workload"]["written_footprint_pages"], lb * 64), 1),
                     metric(a, "host_pages_written"), fmt(ratio(metric(a, "sequential_log_writes"),
                                                                metric(a, "log_writes"))),
                     fmt(hat_ratio(a), 1)])
    w(table(["trace", "blocks", "drive MiB", "footprint pages", "log blocks", "sequential area bound",
             "footprint / log", "host pages written", "ADAPT: sequential share of log writes",
             "random area / HAT (write requests)"], rows))
    w("\nADAPT's partition adapts only where the log has at least 32 blocks (its upper bound, 1/16 of the "
      "log, is 1 block below that).\n")

    w("## Fig. 6: elapsed time normalised to FASTer (one chip)\n")
    rows, bars = [], {}
    for t in traces:
        cells = [norm(r, t, f) for f in FTLS[1:]]
        for f, c in zip(FTLS[1:], cells):
            bars[(t, f)] = c if c == c else 0
        rows.append([t, fmt(flash_ms(r[f"chip-{t}-faster"]), 0), *cells,
                     f"{min(repro.kept_up(r[f'chip-{t}-{f}']) for f in FTLS):.0%}"])
    sums = {"sum": list(traces), "sum, traces only": real(traces)} if real(traces) != list(traces) else \
        {"sum": list(traces)}
    for label, members in sums.items():
        rows.append([label, fmt(sum(flash_ms(r[f"chip-{t}-faster"]) for t in members), 0),
                     *[total_norm(r, members, f, flash_ms) for f in FTLS[1:]], ""])
    for f in FTLS[1:]:
        bars[("sum", f)] = total_norm(r, list(traces), f, flash_ms)
    w(table(["trace", "FASTer ms", "DFTL / FASTer", "WAFTL / FASTer", "ADAPT / FASTer", "lowest served / offered"],
            rows))
    w("\nThe sum rows are the paper's rightmost bar: each FTL's total elapsed time over the traces, over "
      "FASTer's total. Synthetic workloads are marked by name in the setup; \"traces only\" leaves them out. "
      "\"Lowest served / offered\": the smallest share of the trace's request rate one of the four FTLs kept up "
      "with on the chip (open loop). Below 100% the chip fell behind the trace and requests queued; the elapsed "
      "time (the dies' operation time, FlashSim's measure) counts the work done, which queueing does not change, "
      "but the latencies of such runs measure the queue.\n")
    repro.bar_plot(os.path.join(args.out, "adapt_fig6.png"), "Elapsed time / FASTer (one chip)",
                   list(traces) + ["sum"], FTLS[1:], bars, "normalised elapsed time")
    w("\n![Fig. 6](adapt_fig6.png)\n")

    w("## Figs. 7 and 8: erases and writes (flash programs) normalised to FASTer\n")
    rows = []
    for t in traces:
        rows.append([t, erases(r[f"chip-{t}-faster"]), norm(r, t, "waftl", measure=erases),
                     norm(r, t, "adapt", measure=erases), programs(r[f"chip-{t}-faster"]),
                     norm(r, t, "waftl", measure=programs), norm(r, t, "adapt", measure=programs)])
    rows.append(["sum", sum(erases(r[f"chip-{t}-faster"]) for t in traces),
                 total_norm(r, traces, "waftl", erases), total_norm(r, traces, "adapt", erases),
                 sum(programs(r[f"chip-{t}-faster"]) for t in traces),
                 total_norm(r, traces, "waftl", programs), total_norm(r, traces, "adapt", programs)])
    w(table(["trace", "FASTer erases", "WAFTL / FASTer", "ADAPT / FASTer", "FASTer programs",
             "WAFTL / FASTer", "ADAPT / FASTer"], rows))
    w("")

    w("## Claims of section IV-B, one row each\n")
    gain = lambda f, base: {t: 1 - norm(r, t, f, base) for t in traces}
    rows = []
    for base, paper in (("faster", 0.207), ("waftl", 0.153)):  # the headline: the sum bar
        for label, members in (("all workloads", list(traces)), ("traces only", real(traces))):
            total = total_norm(r, members, "adapt", flash_ms, base=base)
            rows.append([f"ADAPT's time saved against {base}, sum bar ({label})", f"{paper:.1%} (\"in all\")",
                         f"{1 - total:.1%}", judge(total, 1 - paper - 0.05, 1 - paper + 0.05, "<")])
    for base, best_paper, where, avg_paper in (("faster", 0.354, "SPC1", 0.207), ("waftl", 0.235, "rsrch_0", 0.153),
                                               ("dftl", 0.442, "prn_0", None)):
        g = gain("adapt", base)
        best = max(g, key=g.get)
        mean = sum(g.values()) / len(g)
        rows.append([f"ADAPT's most time saved against {base} (one trace)", f"{best_paper:.1%} ({where})",
                     f"{g[best]:.1%} ({best})", judge(1 - g[best], 1 - best_paper - 0.1, 1 - best_paper + 0.1, "<")])
        if avg_paper is not None:
            rows.append([f"ADAPT's mean over the traces of the time saved against {base}", f"{avg_paper:.1%}", f"{mean:.1%}",
                         judge(1 - mean, 1 - avg_paper - 0.05, 1 - avg_paper + 0.05, "<")])
    for base in ("faster", "waftl"):
        for name, measure in (("writes", programs), ("erases", erases)):
            fewer = [t for t in traces if measure(r[f"chip-{t}-adapt"]) <= measure(r[f"chip-{t}-{base}"])]
            rows.append([f"ADAPT {name} <= {base}'s on every trace", f"{len(traces)} of {len(traces)}",
                         f"{len(fewer)} of {len(traces)}", "agrees" if len(fewer) == len(traces) else "differs"])
    w(table(["claim", "paper", "ours", ""], rows))
    w("")

    if not args.quick:
        w(f"## Fig. 9: log space 3%, 5% and 10% (elapsed time / FASTer at the same log; stand-ins of "
          f"{args.detail_writes:,} writes)\n")
        rows = []
        for t in traces:
            cells = []
            for share in [LOG_SHARE] + LOG_SHARES:
                sfx = "" if share == LOG_SHARE else f"-log{round(share * 100)}"
                for f in ("waftl", "adapt"):
                    cells.append(ratio(flash_ms(r[f"detail-{t}-{f}{sfx}"]), flash_ms(r[f"detail-{t}-faster{sfx}"])))
            rows.append([t, *cells])
        w(table(["trace", "WAFTL 3%", "ADAPT 3%", "WAFTL 5%", "ADAPT 5%", "WAFTL 10%", "ADAPT 10%"], rows))
        w("")

    w(f"## Figs. 10, 11 and 18: ablations (elapsed time / ADAPT; stand-ins of {args.detail_writes:,} writes)\n")
    abl = [a for a in ("adapt-sw", "adapt-2", "adapt-32", "adapt-nd") if a in ablations]
    rows = []
    for t in traces:
        rows.append([t, *[norm(r, t, a, base="adapt", prefix="detail") for a in abl]])
    w(table(["trace", *abl], rows))
    w("\nPaper: ADAPT-sw up to 31.9% slower (Fig. 10); the fixed thresholds each lose on some traces "
      "(Fig. 11); ERL worth a few percent (Fig. 18).\n")
    g = {t: norm(r, t, "adapt-sw", base="adapt", prefix="detail") - 1 for t in traces}
    worst = max(g, key=g.get)
    erl = {t: norm(r, t, "adapt-nd", base="adapt", prefix="detail") - 1 for t in traces} if "adapt-nd" in ablations else {}
    erl_best = max(erl, key=erl.get) if erl else None
    w(table(["claim", "paper", "ours", ""], [
        ["ADAPT-sw's most time lost", "31.9%", f"{g[worst]:.1%} ({worst})", judge(1 + g[worst], 1.2, 1.45, ">")],
        *([["ERL's most time saved (ADAPT-nd / ADAPT - 1)", "4.3% (web_0)", f"{erl[erl_best]:.1%} ({erl_best})",
            judge(1 + erl[erl_best], 1.0, 1.05)]] if erl else [])]))
    w("")

    readings = [a for a in ("misfit-ignore", "hat-key-base", "idle-keep", "old-readings") if a in ablations]
    if readings:
        w("## The readings of the paper this reproduction changed (elapsed time / ADAPT; threshold changes)\n")
        w("`misfit-ignore`: delta blind to requests wrongly treated as sequential; `hat-key-base`: a HAT entry "
          "moved by its base address alone; `idle-keep`: an interval without a sequential allocation leaves the "
          "threshold up; `old-readings`: all three, ADAPT as this reproduction ran it before.\n")
        rows = []
        for t in traces:
            rows.append([t, metric(r[f"detail-{t}-adapt"], "threshold_changes"),
                         *[c for a in readings for c in (norm(r, t, a, base="adapt", prefix="detail"),
                                                          metric(r[f"detail-{t}-{a}"], "threshold_changes"))]])
        w(table(["trace", "ADAPT threshold changes", *[c for a in readings for c in (a, "changes")]], rows))
        w("")

    w(f"## Fig. 14: HAT size (elapsed time / ADAPT at 1 KiB; prediction hit rate; second chances; "
      f"stand-ins of {args.detail_writes:,} writes)\n")
    hats = [b for b in HAT_SIZES if b == 1024 or f"hat-{b}" in ablations]
    run_of = lambda b: "adapt" if b == 1024 else f"hat-{b}"
    rows = []
    for t in traces:
        rows.append([t, *[norm(r, t, run_of(b), base="adapt", prefix="detail") for b in hats if b != 1024],
                     *[fmt(metric(r[f"detail-{t}-{run_of(b)}"], "prediction_hit_rate")) for b in hats],
                     *[metric(r[f"detail-{t}-{run_of(b)}"], "second_chance_copies") for b in hats]])
    w(table(["trace", *[f"time {b} B" for b in hats if b != 1024], *[f"hit rate {b} B" for b in hats],
             *[f"second chances {b} B" for b in hats]], rows))
    w("\nThe paper's sizes are 512 B-2 KiB (85-341 requests); 6 B is one entry (almost no history), 8 and "
      "64 KiB are beyond the paper's range, to show where the predictions start to cover the random head.\n")
    if "tau-40" in ablations:
        w(f"## Figs. 15-17: tau (elapsed time, writes and erases / tau = 56; stand-ins of {args.detail_writes:,} "
          "writes)\n")
        rows, lines = [], {}
        for t in traces:
            name = lambda tau: "adapt" if tau == 56 else f"tau-{tau}"
            el = [norm(r, t, name(tau), base="adapt", prefix="detail") for tau in TAUS]
            lines[t] = el
            rows.append([t, *el, *[norm(r, t, name(tau), base="adapt", measure=programs, prefix="detail") for tau in (40, 64)],
                         *[norm(r, t, name(tau), base="adapt", measure=erases, prefix="detail") for tau in (40, 64)],
                         *[metric(r[f"detail-{t}-{name(tau)}"], "aggregated_moves") for tau in TAUS]])
        w(table(["trace", *[f"tau {tau}" for tau in TAUS], "writes tau 40", "writes tau 64", "erases tau 40",
                 "erases tau 64",
                 *[f"moves tau {tau}" for tau in TAUS]], rows))
        repro.line_plot(os.path.join(args.out, "adapt_tau.png"), "Elapsed time / tau=56", TAUS, lines, "tau (pages)",
                        "normalised elapsed time", logx=False)
        w("\n![tau](adapt_tau.png)\n")

    w("## Table III: prediction and aggregation counters (ADAPT at the paper's settings)\n")
    rows = []
    for t in traces:
        a = r[f"chip-{t}-adapt"]
        pages_per_request = ratio(metric(a, "host_pages_written"), a["host"]["writes"])
        rotation = ratio(metric(a, "random_area_blocks") * 64, pages_per_request)
        rows.append([t, fmt(rotation, 0), metric(a, "hat_lookups"), metric(a, "hat_hits"),
                     fmt(metric(a, "prediction_hit_rate")), metric(a, "second_chance_copies"),
                     metric(a, "second_chance_rewrites"), fmt(metric(a, "second_chance_precision")),
                     metric(a, "aggregated_moves"), metric(a, "early_reuses"),
                     metric(a, "blocks_to_sequential_area"), metric(a, "blocks_to_random_area"),
                     metric(a, "threshold_changes"), metric(a, "sequential_misfit_requests")])
    w(table(["trace", "random area, in write requests", "HAT lookups", "HAT hits",
             "prediction hit rate (hits / lookups)", "second chances", "later rewritten in the log",
             "second-chance precision (ours)", "aggregated moves", "early reuses", "blocks to sequential area",
             "blocks to random area", "threshold changes", "misfit requests"], rows))
    if "tpcc" in traces:
        tp = r["chip-tpcc-adapt"]
        w(table(["claim", "paper", "ours", ""], [
            ["TPC-C: prediction hit rate", "100%", f"{metric(tp, 'prediction_hit_rate'):.1%} of "
             f"{metric(tp, 'hat_lookups'):,} lookups",
             "not comparable" if metric(tp, "hat_lookups") < 100 else
             judge(metric(tp, "prediction_hit_rate"), 0.9, 1.0)],
            ["TPC-C: no aggregated move", "0", metric(tp, "aggregated_moves"),
             "agrees" if metric(tp, "aggregated_moves") == 0 else "differs"]]))
    w("\nPaper (Table III): prediction hit rate 100% on TPC-C_20, 79.5% on SPC1: Algorithm 2's IsHATHit, HAT "
      "hits over HAT lookups. \"Random area, in write requests\": how many of the trace's mean write requests "
      "fill the random area, against the HAT's 170 entries (1 KiB). Second-chance precision is ours, not the "
      "paper's: the share of second-chance copies the host rewrote while they were still in the log.\n")

    if sweep:
        w(f"## Drive size: the random area from 0.5 to 8 times the HAT's history (stand-ins of {args.detail_writes:,} writes)\n")
        w("Each trace on chips sized so that the random area (the log but its one sequential block, at the "
          "start) holds the target number of HAT histories (170 write requests of the trace's mean size); the "
          "ratio measured at the end of the run beside it (the partition adapts). The smallest drives are "
          f"floored at {MIN_BLOCKS} blocks.\n")
        rows, lines = [], {}
        for t in traces:
            line = []
            for target in HAT_RATIOS:
                if f"sweep-{t}-r{target}-adapt" not in r:  # a synthetic workload's drive cannot be that small
                    line.append(float("nan"))
                    rows.append([t, target, f"(under {dsizes[t]}: the job file's ranges do not fit)", "", "", "", "", "", ""])
                    continue
                a, f = r[f"sweep-{t}-r{target}-adapt"], r[f"sweep-{t}-r{target}-faster"]
                rel = ratio(flash_ms(a), flash_ms(f))
                line.append(rel)
                rows.append([t, target, a["platform"]["effective"]["geometry.blocks_per_plane"], fmt(hat_ratio(a), 1),
                             rel, ratio(erases(a), erases(f)), fmt(metric(a, "prediction_hit_rate")),
                             metric(a, "second_chance_copies"), metric(a, "aggregated_moves")])
            lines[t] = line
        w(table(["trace", "target ratio", "blocks", "measured ratio", "ADAPT / FASTer time", "ADAPT / FASTer erases",
                 "prediction hit rate", "second chances", "aggregated moves"], rows))
        repro.line_plot(os.path.join(args.out, "adapt_hat_ratio.png"), "ADAPT / FASTer elapsed time by drive size",
                        HAT_RATIOS, lines, "random area / HAT history (target)", "ADAPT / FASTer")
        w("\n![drive size](adapt_hat_ratio.png)\n")

    loops = [t for t in real(traces) if f"loop-{t}-adapt" in r]
    if loops:
        w("## The excerpts looped, as this reproduction ran them before (a comparison, not the headline)\n")
        w("Each excerpt replayed back to back (`--repeat`, the passes in `adapt.py`'s TRACES) on a chip sized by "
          "the headline's rule from the excerpt's own footprint (as these runs were sized before the stand-ins); "
          "every page is rewritten once a pass, far later than a rotation of the random area, and the adaptive "
          "threshold sees a few intervals.\n")
        rows = []
        for t in loops:
            rows.append([t, r[f"loop-{t}-adapt"]["platform"]["effective"]["geometry.blocks_per_plane"],
                         r[f"loop-{t}-adapt"]["host"]["writes"],
                         r[f"chip-{t}-adapt"]["host"]["writes"],
                         *[norm(r, t, f, prefix="loop") for f in FTLS[1:]], *[norm(r, t, f) for f in FTLS[1:]]])
        rows.append(["sum", "", "", "", *[total_norm(r, loops, f, flash_ms, prefix="loop") for f in FTLS[1:]],
                     *[total_norm(r, loops, f, flash_ms) for f in FTLS[1:]]])
        w(table(["trace", "looped chip blocks", "looped writes", "stand-in writes", *[f"looped {f} / FASTer" for f in FTLS[1:]],
                 *[f"stand-in {f} / FASTer" for f in FTLS[1:]]], rows))
        w("")

    if f"default-{next(iter(traces))}-adapt" in r:
        for prefix, title, note in (
                ("defwt", "The same FTLs at their defaults on `platforms/default.yaml` (8 channels x 4 ways, "
                 "128 GiB), writes reaching the FTL as they come", "The traces' footprints (at most 200 MiB) are far "
                 "below this drive's 3.8 GiB log, so no random log area fills; the merges here are the sequential "
                 "logs' (FAST's offset-0 rule). `firmware.write_buffer=off`; the last columns are the product's "
                 "default, a 64 MiB block_lru write buffer in front (\"-\": no page reached the FTL)."),
                ("sized", "The default platform's geometry, shrunk per trace like the chip (single physical "
                 "blocks for every FTL)", "8 channels x 4 ways x 2 planes, 256-page 8 KiB blocks, "
                 "`blocks_per_plane` sized for the same pressure on the log; the paper's settings otherwise (no write "
                 "buffer).")):
            w(f"## {title}\n")
            rows = []
            buffered = prefix == "defwt"
            for t in traces:
                for f in FTLS:
                    rep = r[f"{prefix}-{t}-{f}"]
                    size = rep["platform"]["effective"]["geometry.blocks_per_plane"]
                    row = [t, size, f, norm(r, t, f, prefix=prefix), norm(r, t, f, measure=mean_us, prefix=prefix),
                           metric(rep, "partial_merges", "-"), metric(rep, "full_merges", "-"),
                           metric(rep, "merge_copies", metric(rep, "gc_copies", "-")), repro.ftl_waf(rep),
                           fmt(mean_us(rep), 0), f"{repro.kept_up(rep):.0%}"]
                    if buffered:
                        b = r[f"default-{t}-{f}"]
                        row += [repro.ftl_waf(b), repro.left_in_buffer(b), fmt(mean_us(b), 0)]
                    rows.append(row + [fmt(rep["simulation"]["wall_seconds"], 1)])
            w(table(["trace", "blocks per plane", "ftl", "die time / FASTer", "mean latency / FASTer", "partial merges",
                     "full merges", "copies", "WAF", "mean us", "served / offered",
                     *(["buffered: FTL WAF", "pages left in the buffer", "buffered: mean us"] if buffered else []),
                     "wall s"], rows))
            w(f"\n{note} \"Served / offered\": the share of the trace's request rate the drive kept up with; "
              "below 100% its latencies (and so \"mean latency / FASTer\") measure a growing queue.\n")
    repro.write_report(args.out, "adapt", out)


if __name__ == "__main__":
    main()
