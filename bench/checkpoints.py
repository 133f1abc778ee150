#!/usr/bin/python3
"""Map checkpoints: recovery time and write amplification against the checkpoint interval, per FTL
family and drive size (issue 35).

Each drive is filled (--precondition fill; the firmware takes its factory checkpoint at the end),
then written sequentially in 256 KiB requests for 1.5 checkpoint intervals, without a write
buffer (a write completes once programmed, so the interval counts host writes and the checkpoint
taken after the first interval is whole by the cut), and loses its power:
on average a cut comes half an interval after the last checkpoint, and this one does, so the boot
reads the checkpoint, page 0 of each block it saved, and scans what was written since (about half
an interval, plus the blocks open at the checkpoint). Interval 0 is no checkpoints: the full scan
(bench/recovery_time.py has it against drive size). Sequential writes keep the hybrids to switch
merges, so the volume written since the checkpoint, not an FTL's merges, decides the scan.

Per run: the checkpoint's size (Ftl::checkpoint_bytes in pages), the boot's reads and recovery
time, and the checkpoints' write amplification: measured (checkpoint pages over the host pages the
FTL was given) beside its closed form (checkpoint pages over the interval's pages). Writes
checkpoints.csv/.md and checkpoints.png into --out (default bench/).
"""
import math
import os

from bench_common import ROOT, drive_study_arguments, run_jobs, effective_number, pyplot, run_ssdsim, write_tables

SIZES = [("tiny", 256), ("tiny", 1024), ("default", 512), ("default", 1024)]
FTLS = ["page_mapping", "dftl", "bast"]
# MiB between checkpoints, per platform (0: none).
INTERVALS = {"tiny": [0, 8, 32, 128], "default": [0, 256, 1024, 4096]}
REQUEST = 256 * 1024


def one(a, platform, blocks, ftl, interval):
    smallest = min(i for i in INTERVALS[platform] if i > 0)
    written = int(1.5 * (interval or smallest) * 2**20)
    count = math.ceil(written / REQUEST)
    args = ["-p", os.path.join(ROOT, "platforms", platform + ".yaml"), "--ftl", ftl, "--set",
            f"geometry.blocks_per_plane={blocks}", "--set", "firmware.erase_after_copies=true", "--set",
            f"firmware.checkpoint_interval_mib={interval}", "--set", "firmware.write_buffer=off", "--precondition", "fill", "--synthetic", "sequential",
            "--request-bytes", str(REQUEST), "--read-fraction", "0", "--count", str(count), "--power-cut-after", str(count)]
    r = run_ssdsim(args, os.path.join(a.work, f"{platform}-{blocks}-{ftl}-{interval}.json"))
    geo = [effective_number(r, "geometry." + k) for k in
           ("channels", "ways", "dies_per_way", "planes_per_die", "blocks_per_plane", "pages_per_block")]
    page = effective_number(r, "geometry.page_bytes")
    raw = math.prod(geo) * page
    b, f = r["power_cut"]["boot"], r["ftl_metrics"]
    ck = b.get("checkpoint", {})
    host = f["host_pages_written"]
    ck_pages = f.get("checkpoint_pages_programmed", 0) / max(1, f.get("checkpoints_written", 0))
    return {"platform": platform, "raw GiB": round(raw / 2**30, 3), "FTL": ftl, "interval MiB": interval,
            "written MiB": round(count * REQUEST / 2**20), "checkpoint pages": round(ck_pages) if interval else "-",
            "checkpoints": f.get("checkpoints_written", 0), "pages read": b["pages_read"],
            "blocks from checkpoint": ck.get("blocks_from_checkpoint", "-"),
            "recovery s": round(b["recovery_s"], 4),
            "WAF added": round(f.get("checkpoint_pages_programmed", 0) / host, 4) if interval else 0,
            "C / I": round(ck_pages / (interval * 2**20 / page), 4) if interval else 0,
            "WAF": round(f["waf"], 4), "map same": b["map_differences"] == 0,
            "durable ok": r["power_cut"]["durability"]["verdict"] == "ok"}


def main():
    a = drive_study_arguments(__doc__, SIZES, FTLS, "checkpoints")
    sizes = a.sizes
    jobs = [(pl, b, f, i) for pl, b in sizes for f in a.ftls for i in INTERVALS[pl]]
    rows = run_jobs(a, one, jobs)
    notes = ["", "Filled drive, then 1.5 checkpoint intervals of sequential 256 KiB writes (no write buffer), then the cut (interval 0: "
             "no checkpoints, the full scan, after 1.5 of the smallest interval). `checkpoint pages`: one "
             "checkpoint (Ftl::checkpoint_bytes over the page size); `pages read`: the boot's, the checkpoint's "
             "pages included; `blocks from checkpoint`: saved and not erased since, one read each; `WAF added`: "
             "checkpoint pages programmed over the host pages the FTL was given (one checkpoint in 1.5 intervals: "
             "two thirds of C / I); `C / I`: what checkpoints add in the long run, one checkpoint's pages over "
             "an interval's pages; `map same`: the boot's map is the one read straight "
             "from the array."]
    write_tables(a.out, "checkpoints", list(rows[0].keys()), rows, notes)
    plt = pyplot()
    if not plt:
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for (platform, blocks), marker in zip(sizes, "os^vD"):
        for ftl, style in zip(a.ftls, ["-", "--", ":"]):
            mine = [r for r, j in zip(rows, jobs) if j[:3] == (platform, blocks, ftl) and j[3] > 0]
            if not mine:
                continue
            label = f"{platform} {mine[0]['raw GiB']:g} GiB {ftl}"
            axes[0].plot([r["interval MiB"] for r in mine], [r["recovery s"] for r in mine], marker + style, label=label)
            axes[1].plot([r["interval MiB"] for r in mine], [r["C / I"] for r in mine], marker + style, label=label)
    for ax, what in zip(axes, ["recovery after a power cut (s)", "WAF the checkpoints add (C / I)"]):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("checkpoint interval (MiB of host writes)")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_title("Recovery, cut half an interval after a checkpoint")
    axes[1].set_title("Write amplification the checkpoints add")
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "checkpoints.png"), dpi=120)


if __name__ == "__main__":
    main()
