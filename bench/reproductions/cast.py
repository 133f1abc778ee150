#!/usr/bin/python3
"""CAST (Xu, Li, Xu: compact address space translation) reproduced: DFTL, CAST and FAST on the
paper's flash, configured the way its FlashSim runs were, with ablations of CAST's two
mechanisms (the compact run-length mapping table, and 4 parallel current data blocks placed
by address) and of our platform's extensions (striped segments, shared translation reads).

Writes bench/reproductions/cast.{md,csv} and cast_*.png from runs it makes (reports under
results/reproductions/cast). --quick: the bundled hm_0 trace, one budget, the parallel drive only.
Needs a built ssdsim (cmake --preset default && cmake --build --preset default).
"""
import os

import repro
from repro import fmt, judge, metric, ratio, table, translation_io

PLATFORM = os.path.join(repro.ROOT, "platforms", "cast_paper_blocks_2g.yaml")
# FlashSim serialises flash operations: one die holding the same 2 GiB.
DRIVES = {"parallel": [], "one_die": ["--set", "geometry.channels=1", "--set", "geometry.ways=1",
                                      "--set", "geometry.blocks_per_plane=2048"]}
# name: (file, passes, time scale, the paper's trace it stands for)
TRACES = {
    "rsrch_1": ("msr/rsrch_1.csv", 3, 1.0, "MSR"),
    "hm_0": ("msr/hm_0.csv", 10, 1.0, "MSR"),
    "wdev_1": ("msr/wdev_1.csv", 20, 1.0, "MSR"),
    "websearch": ("mqsim/wsrch-small.trace", 2, 1.0, "WebSearch2"),
    "tpcc": ("mqsim/tpcc-small.trace", 5, 20.0, None),
}
# --quick runs from a clone alone: the hm_0 trace bundled in workloads/traces.
QUICK_TRACES = {"hm_0": (os.path.join(repro.ROOT, "workloads", "traces", "hm_0.csv"), 1, 1.0, "MSR")}
BUDGET = 256 << 10  # the paper does not say which SRAM Figs 7-8 and Table III used
BUDGETS = [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20]  # Fig. 9
# The paper's configuration (FlashSim): single 256-page blocks, one translation read per miss,
# GC of a whole victim at once with its mapping updates written back in one batch.
PAPER = ["--set", "ftl.segment_planes=1", "--set", "ftl.share_translation_reads=false",
         "--set", "ftl.gc_pacing=threshold", "--set", "ftl.gc_write_back=batch"]
FAST = ["--set", "ftl.segment_planes=1"]  # FAST on single blocks, 3% log, the same 20% spare
VARIANTS = {  # name: (ftl, settings beyond PAPER), the ablations
    "cast-1cb": ("cast", ["--set", "ftl.current_blocks=1"]),           # CAST's table, DFTL's allocation
    "dftl-abl4": ("dftl", ["--set", "ftl.current_blocks=4"]),          # DFTL's table, CAST's allocation
    "dftl-shared": ("dftl", ["--set", "ftl.share_translation_reads=true"]),
    "cast-shared": ("cast", ["--set", "ftl.share_translation_reads=true"]),
    "dftl-striped": ("dftl", ["--set", "ftl.segment_planes=8"]),
    "cast-striped": ("cast", ["--set", "ftl.segment_planes=8"]),
    "dftl-filled": ("dftl", [], "fill"),    # a filled drive without the random-write steady state
    "cast-filled": ("cast", [], "fill"),
}
PAPER_NUMBERS = {  # Table III counts (reads, writes), Fig. 7 CAST/DFTL response
    "MSR": {"t3": (107863, 102357, 43497, 41208), "fig7": 0.7549},
    "Financial1": {"t3": (83479, 76128, 52379, 50128), "fig7": 0.8702},
    "Laptop": {"t3": (129379, 78826, 22274, 21279), "fig7": 0.6623},
    "WebSearch2": {"t3": (99486, 687, 34989, 238), "fig7": 0.967},
}


def job_args(args, trace, drive, ftl, settings, budget, traces, state=None, looped=False, writes=None):
    """The trace as its long stand-in (repro.standin), or with looped=True (and --quick) the excerpt
    replayed `passes` times back to back, as this reproduction ran it before."""
    path, passes, scale, _ = traces[trace]
    state = state or ("fill" if args.quick else "fill+random:1")  # --quick: seconds, not the steady state
    if looped or args.quick:
        replay = ["-t", os.path.join(args.traces_dir, path), "--repeat", str(passes)]
    else:
        replay = ["-t", repro.standin(args, traces, trace, writes)]
    return ["-p", PLATFORM, *DRIVES[drive], "--ftl", ftl, *replay, "--time-scale", str(scale), "--fold",
            "--precondition", state, *settings, *([] if ftl == "fast" else ["--set", f"ftl.cmt_bytes={budget}"])]


def main():
    args = repro.arguments(__doc__, "cast")
    traces = QUICK_TRACES if args.quick else TRACES
    drives = ["parallel"] if args.quick else list(DRIVES)
    budgets = [BUDGET] if args.quick else BUDGETS
    detail = None if args.quick else args.detail_writes
    repro.prepare_standins(args, traces, (None, detail))
    jobs = {}
    for t in traces:
        for d in drives:
            jobs[f"{d}-{t}-fast"] = job_args(args, t, d, "fast", FAST, BUDGET, traces)
            for ftl in ("dftl", "cast"):
                jobs[f"{d}-{t}-{ftl}-{BUDGET}"] = job_args(args, t, d, ftl, PAPER, BUDGET, traces)
        # Fig. 9's SRAM sweep and the ablations (many runs a trace) on the shorter stand-ins.
        for ftl in ("dftl", "cast"):
            for b in budgets:
                jobs[f"detail-{t}-{ftl}-{b}"] = job_args(args, t, drives[-1], ftl, PAPER, b, traces, writes=detail)
        for v, (ftl, extra, *state) in VARIANTS.items():
            if args.quick and v not in ("cast-1cb", "dftl-abl4"):
                continue
            jobs[f"detail-{t}-{v}-{BUDGET}"] = job_args(args, t, "parallel", ftl, PAPER + extra, BUDGET, traces, *state,
                                                        writes=detail)
        if not args.quick:  # the excerpt looped, as before: the labelled comparison
            jobs[f"loop-{t}-fast"] = job_args(args, t, "parallel", "fast", FAST, BUDGET, traces, looped=True)
            for ftl in ("dftl", "cast"):
                jobs[f"loop-{t}-{ftl}-{BUDGET}"] = job_args(args, t, "parallel", ftl, PAPER, BUDGET, traces, looped=True)
    r = repro.run_matrix(args, jobs)

    rows = []
    for name, rep in sorted(r.items()):
        tr, tw = translation_io(rep)
        h = rep["host"]
        rows.append({"run": name, "requests": h["requests"], "mean_us": round(h["latency_us"]["mean"], 1),
                     "p99_us": round(h["latency_us"]["p99"], 1), "translation_reads": tr,
                     "translation_writes": tw, "erases": metric(rep, "erases"), "waf": repro.ftl_waf(rep),
                     "gc_copies": metric(rep, "gc_copies"), "cmt_hit_rate": cmt_hit_rate(rep),
                     "avg_run_length": round(metric(rep, "cmt_average_run_length"), 2),
                     "die_busy_mean": round(rep["utilization"]["dies"]["mean"], 3)
                     if "utilization" in rep and "dies" in rep["utilization"] else "",
                     "avg_request_kib": round((h["read_bytes"] + h["write_bytes"]) / 1024 / max(1, h["requests"]), 2)})
    repro.write_csv(os.path.join(args.out, "cast.csv"), rows)
    write_markdown(args, r, traces, drives, budgets)


def cmt_hit_rate(rep):
    hits = metric(rep, "cmt_read_hits") + metric(rep, "cmt_write_hits")
    lookups = hits + metric(rep, "cmt_read_misses") + metric(rep, "cmt_write_misses")
    return round(hits / lookups, 4) if lookups else ""


def write_markdown(args, r, traces, drives, budgets):
    get = lambda d, t, f, b=BUDGET: r[f"{d}-{t}-{f}" + ("" if f == "fast" else f"-{b}")]
    mean = lambda rep: rep["host"]["latency_us"]["mean"]
    out = repro.report_header("CAST", "cast", args.quick)
    w = out.append
    w("## Setup: the paper's configuration beside ours\n")
    w(table(["", "paper (FlashSim)", "ours", "why"], [
        ["flash", "Table I rows (which one simulated: not stated)", "64 GB MLC row: 4 KiB pages, 256-page blocks, "
         "tR 50 us, tPROG 900 us, tBERS 3 ms", "the row whose page size the paper's DFTL example uses (4 KiB)"],
        ["capacity, parallelism", "not stated; FlashSim serialises operations",
         "2 GiB on 4 channels x 2 ways (`parallel`) and on one die (`one_die`)",
         "2 GiB so the short shared traces keep GC busy; one die for FlashSim's serial timing"],
        ["erase/GC unit", "one 256-page block", "one 256-page block (`segment_planes=1`); striped 8-plane "
         "segments only as an ablation", "the paper's"],
        ["translation reads", "one per miss", "one per miss (`share_translation_reads=false`); sharing an "
         "in-flight read only as an ablation", "the paper's"],
        ["GC", "cost-benefit, until enough free blocks; copies into a current block",
         "cost-benefit victims from 7 free blocks; the whole victim at once (`gc_pacing=threshold`), its "
         "mapping updates in one batch (`gc_write_back=batch`)", "the paper's DFTL behaviour"],
        ["over-provisioning", "not stated", "20% for every FTL (FAST: 3% log + free pool)", "equal footing"],
        ["SRAM (Figs. 7-8, Table III)", "not stated", f"{BUDGET >> 10} KiB", "inside the Fig. 9 range"],
        ["SRAM sweep (Fig. 9)", "64 KiB - 2 MiB", ", ".join(f"{b >> 10} KiB" for b in budgets), "the paper's"],
        ["CAST", "ABL, current blocks not stated (Fig. 3: four), 8-bit run length", "ABL, 4 current blocks, "
         "8-bit run length (9-byte entries: 8/9 of DFTL's)", "the paper's examples"],
        ["traces", "MSR subset, Financial1, Laptop (private), WebSearch2",
         "stand-ins (`ssdsim standin`) of a million write requests reconstructed from the excerpts of MSR "
         "rsrch_1, hm_0, wdev_1 and TPC-C (extra); WebSearch, read-only (0.016% writes), as a stand-in of a "
         "million requests instead (a million writes would take billions)",
         "Financial1 is not among the shared traces, Laptop was never published; looping an excerpt rewrites "
         "every page once a pass (kept as a labelled comparison)"],
        ["drive state", "not stated", "sequential fill, then one capacity of random page writes (GC in steady "
         "state) for every FTL", "equal footing"],
        ["replay", "not stated", "open loop on the stand-ins' times (TPC-C's arrivals x20); the looped "
         "comparison: the excerpts back to back (" + ", ".join(f"{t} x{v[1]}" for t, v in traces.items()) + ")",
         "long enough to keep GC busy"],
    ]))
    w("")

    w("## Table III: translation-page I/O, CAST / DFTL (parallel drive)\n")
    rows = []
    for t, (_, _, _, paper) in traces.items():
        d, c = get("parallel", t, "dftl"), get("parallel", t, "cast")
        (dr, dw), (cr, cw) = translation_io(d), translation_io(c)
        if paper:
            pr = PAPER_NUMBERS[paper]["t3"]
            rows.append([t, paper, f"{pr[2] / pr[0]:.2f}", fmt(ratio(cr, dr)), judge(ratio(cr, dr), pr[2] / pr[0], pr[2] / pr[0], "<"),
                         f"{pr[3] / pr[1]:.2f}", fmt(ratio(cw, dw)), judge(ratio(cw, dw), pr[3] / pr[1], pr[3] / pr[1], "<"),
                         f"{dr:,} / {cr:,}", f"{dw:,} / {cw:,}"])
        else:
            rows.append([t, "not in the paper", "-", fmt(ratio(cr, dr)), "not comparable", "-", fmt(ratio(cw, dw)),
                         "not comparable", f"{dr:,} / {cr:,}", f"{dw:,} / {cw:,}"])
    for paper in ("Financial1", "Laptop"):
        pr = PAPER_NUMBERS[paper]["t3"]
        rows.append([f"({paper})", paper, f"{pr[2] / pr[0]:.2f}", "-", "not comparable (trace not available)",
                     f"{pr[3] / pr[1]:.2f}", "-", "not comparable", "-", "-"])
    w(table(["trace", "paper trace", "paper reads", "ours reads", "", "paper writes", "ours writes", "",
             "DFTL / CAST reads", "DFTL / CAST writes"], rows))
    w("")

    w("## Section III-B: the mapping cache at the same SRAM, entries and coverage (parallel drive)\n")
    rows = []
    for t in traces:
        d, c = get("parallel", t, "dftl"), get("parallel", t, "cast")
        entries = ratio(metric(c, "cmt_capacity_entries"), metric(d, "cmt_capacity_entries"))
        cover = ratio(metric(c, "cmt_covered_pages"), metric(d, "cmt_covered_pages"))
        rows.append([t, int(metric(d, "cmt_capacity_entries")), int(metric(c, "cmt_capacity_entries")), fmt(entries),
                     judge(entries, 8 / 9, 8 / 9), int(metric(d, "cmt_covered_pages")), int(metric(c, "cmt_covered_pages")),
                     fmt(cover), judge(cover, 1.25, float("inf"), ">"), fmt(metric(c, "cmt_average_run_length")),
                     fmt(metric(r[f"parallel-{t}-cast-filled-{BUDGET}"], "cmt_average_run_length"))
                     if f"parallel-{t}-cast-filled-{BUDGET}" in r else "-"])
    w(table(["trace", "DFTL entries", "CAST entries", "CAST / DFTL (paper 8/9 = 0.89)", "", "DFTL pages covered",
             "CAST pages covered", "CAST / DFTL (paper: much larger)", "", "CAST pages per entry",
             "same, drive only filled (`cast-filled`)"], rows))
    w("\nEntries: the capacity of the cache at the end of the run; pages covered: the logical pages its "
      "entries map then; much larger is read as at least 1.25x. `cast-filled`: the same run on a sequentially "
      "filled drive, without the capacity of random writes that puts GC in steady state.\n")

    w("## Sections IV-B to IV-D: the larger the requests (and the read share), the more CAST gains\n")
    rows, sizes, reads, ios, means = [], [], [], [], []
    for t in traces:
        d, c = get("parallel", t, "dftl"), get("parallel", t, "cast")
        h = c["host"]
        size = (h["read_bytes"] + h["write_bytes"]) / 1024 / max(1, h["requests"])
        read_share = h["reads"] / max(1, h["requests"])
        io, rt = ratio(sum(translation_io(c)), sum(translation_io(d))), ratio(mean(c), mean(d))
        sizes.append(size), reads.append(read_share), ios.append(io), means.append(rt)
        rows.append([t, fmt(size, 1), fmt(read_share), fmt(io), fmt(rt)])
    w(table(["trace", "mean request KiB", "read share", "translation I/O CAST / DFTL", "response CAST / DFTL"], rows))
    def trend(xs, ys, claim):
        if len(xs) < 3:
            return "-"
        rho = repro.spearman(xs, ys)
        verdict = "agrees" if rho <= -0.5 else "differs" if rho >= 0.5 else "no clear trend"
        return f"{rho:+.2f} ({verdict}; paper: {claim})"
    w(f"\nRank correlation (Spearman) across our traces; the paper's claims are negative correlations, read here "
      f"as agreeing at -0.5 or below. Request size with translation I/O "
      f"ratio: {trend(sizes, ios, 'larger requests, fewer translation I/Os')}; with response ratio: "
      f"{trend(sizes, means, 'larger requests, lower response')}; read share with translation I/O ratio: "
      f"{trend(reads, ios, 'more reads, fewer translation I/Os')}.\n")

    for d in drives:
        w(f"## Fig. 7: mean response time (drive `{d}`), normalised to FAST and CAST / DFTL\n")
        rows = []
        for t, (_, _, _, paper) in traces.items():
            f, dd, c = get(d, t, "fast"), get(d, t, "dftl"), get(d, t, "cast")
            cd = ratio(mean(c), mean(dd))
            p = PAPER_NUMBERS[paper]["fig7"] if paper else None
            rows.append([t, fmt(mean(f), 0), fmt(ratio(mean(dd), mean(f))), fmt(ratio(mean(c), mean(f))),
                         f"{p:.2f}" if p else "-", fmt(cd), judge(cd, p, p, "<") if p else "not comparable",
                         fmt(c["utilization"]["dies"]["mean"] if "dies" in c.get("utilization", {}) else float("nan"))])
        w(table(["trace", "FAST mean us", "DFTL / FAST", "CAST / FAST", "paper CAST / DFTL", "ours CAST / DFTL",
                 "", "die busy (CAST)"], rows))
        w("\nPaper: DFTL and CAST below FAST on MSR, Financial1 and Laptop; on WebSearch2 FAST lowest (DFTL "
          "+9.05%, CAST +3.27%); CAST below DFTL on every trace.\n")

    if f"loop-{next(iter(traces))}-fast" in r:
        w("## The excerpts looped, as this reproduction ran them before (a comparison, not the headline)\n")
        w("Each excerpt replayed back to back (`--repeat`, the passes in `cast.py`'s TRACES) on the parallel "
          "drive, beside its stand-in (the tables above).\n")
        rows = []
        for t in traces:
            lf, ld, lc = r[f"loop-{t}-fast"], r[f"loop-{t}-dftl-{BUDGET}"], r[f"loop-{t}-cast-{BUDGET}"]
            sf, sd, sc = (get("parallel", t, x) for x in ("fast", "dftl", "cast"))
            rows.append([t, lf["host"]["requests"], fmt(ratio(mean(lc), mean(ld))), metric(ld, "erases"),
                         metric(lc, "erases"), sf["host"]["requests"], fmt(ratio(mean(sc), mean(sd))),
                         metric(sd, "erases"), metric(sc, "erases")])
        w(table(["trace", "looped requests", "CAST / DFTL response", "DFTL erases", "CAST erases",
                 "stand-in requests", "CAST / DFTL response", "DFTL erases", "CAST erases"], rows))
        w("")

    w("## Fig. 8: erases (parallel drive)\n")
    rows = []
    for t in traces:
        f, dd, c = (get("parallel", t, x) for x in ("fast", "dftl", "cast"))
        e = [metric(x, "erases") for x in (f, dd, c)]
        rows.append([t, *e, fmt(ratio(e[2], e[1])), judge(ratio(e[2], e[1]), 0.9247, 0.9689, "<"),
                     "yes" if e[0] > max(e[1], e[2]) else "no"])
    w(table(["trace", "FAST", "DFTL", "CAST", "CAST / DFTL (paper 0.925-0.969)", "", "FAST the most (paper: yes)"], rows))
    w("")

    d = drives[-1]
    detail = lambda t, f, b=BUDGET: r[f"detail-{t}-{f}-{b}"]
    w(f"## Fig. 9: SRAM size, CAST / DFTL mean response (drive `{d}`; stand-ins of {args.detail_writes:,} writes)\n")
    rows, lines = [], {}
    for t in traces:
        rs = [ratio(mean(detail(t, "cast", b)), mean(detail(t, "dftl", b))) for b in budgets]
        io = [ratio(sum(translation_io(detail(t, "cast", b))), sum(translation_io(detail(t, "dftl", b)))) for b in budgets]
        lines[t] = rs
        trend = "-" if len(budgets) < 2 else ("widens (paper)" if rs[-1] < rs[0] else "narrows")
        rows.append([t, *[fmt(x) for x in rs], trend, " / ".join(fmt(x) for x in io)])
    w(table(["trace", *[f"{b >> 10} KiB" for b in budgets], "gap", "translation I/O CAST / DFTL per budget"], rows))
    w("\nPaper: the gap widens with SRAM; Laptop 8.74% (64 KiB) to 41.73% (2 MiB) less than DFTL.\n")
    if len(budgets) > 1:
        repro.line_plot(os.path.join(args.out, "cast_fig9.png"), f"CAST / DFTL mean response ({d})",
                        [b >> 10 for b in budgets], lines, "SRAM for the mapping cache (KiB)", "CAST / DFTL")
        w("![Fig. 9](cast_fig9.png)\n")

    w(f"## Ablations: which mechanism gives what (parallel drive, translation-page I/O and erases / DFTL; "
      f"stand-ins of {args.detail_writes:,} writes)\n")
    rows = []
    variants = [v for v in VARIANTS if f"detail-{next(iter(traces))}-{v}-{BUDGET}" in r]
    for t in traces:
        base = r[f"detail-{t}-dftl-{BUDGET}"] if f"detail-{t}-dftl-{BUDGET}" in r else get("parallel", t, "dftl")
        bt, be = sum(translation_io(base)), metric(base, "erases")
        cells = []
        for v in ["cast"] + variants:
            x = r[f"detail-{t}-cast-{BUDGET}"] if v == "cast" else r[f"detail-{t}-{v}-{BUDGET}"]
            cells.append(f"{fmt(ratio(sum(translation_io(x)), bt))} / {fmt(ratio(metric(x, 'erases'), be))}")
        rows.append([t, *cells])
    w(table(["trace", "CAST", *variants], rows))
    w("\n`cast-1cb`: CAST's table with DFTL's allocation (one current block). `dftl-abl4`: DFTL's table with "
      "CAST's allocation (4 current blocks by address). `*-shared`: misses on a translation page in flight share "
      "its read (our default). `*-striped`: 8-plane segments (our default on multi-plane drives). `*-filled`: "
      "a sequentially filled drive, without the capacity of random writes before the trace.\n")
    repro.write_report(args.out, "cast", out)


if __name__ == "__main__":
    main()
