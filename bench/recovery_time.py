#!/usr/bin/python3
"""The boot after a power cut: recovery time against drive size (issue 35).

Each drive is filled (--precondition fill), takes a short burst of random 4 KiB writes and loses
its power after half of them (with firmware.erase_after_copies, so no merge loses durable data to
the cut: without it tiny's BAST did, and the audit failed the run); then it boots and its recovery firmware reads the OOB of every
block up to its first erased page through the timed model (fw/recovery/boot_scan.h; without
map checkpoints, firmware.checkpoint_interval_mib, so this is the full scan; bench/checkpoints.py
has the checkpoints). Sizes: platforms/tiny.yaml with
64, 256 and 1,024 blocks a plane (64 MiB to 1 GiB raw, SLC, one 200 MHz core) and
platforms/default.yaml with 512 and 1,024 (64 and 128 GiB raw, MLC; fewer blocks leave page mapping too few spare blocks at its 7%); one FTL of each family.

Per run: pages programmed and read, the reads of the most-read die, the recovery time, and the two
bounds it sits between: the flash's (the most-read die's reads times its mean tR) and the core's
(every read's issue and completion and every programmed page's mapping update, in the platform's
calibrated firmware cycles, at its clock, over its cores). Writes recovery_time.csv/.md and
recovery_time.png into --out (default bench/).
"""
import os

from bench_common import ROOT, drive_study_arguments, run_jobs, pyplot, run_ssdsim, write_tables

SIZES = [("tiny", 64), ("tiny", 256), ("tiny", 1024), ("default", 512), ("default", 1024)]
FTLS = ["page_mapping", "dftl", "bast"]


def effective(report, key):
    v = report["platform"]["effective"][key]
    return [float(x) for x in v] if isinstance(v, list) else float(v)


def one(a, platform, blocks, ftl):
    args = ["-p", os.path.join(ROOT, "platforms", platform + ".yaml"), "--ftl", ftl, "--set",
            f"geometry.blocks_per_plane={blocks}", "--set", "firmware.erase_after_copies=true", "--precondition", "fill", "--synthetic", "random",
            "--request-bytes", "4096", "--count", str(2 * a.cut_after), "--power-cut-after", str(a.cut_after)]
    r = run_ssdsim(args, os.path.join(a.work, f"{platform}-{blocks}-{ftl}.json"))
    b, rec = r["power_cut"]["boot"], r["power_cut"]["recovery"]
    geo = {k: effective(r, "geometry." + k) for k in
           ("channels", "ways", "dies_per_way", "planes_per_die", "blocks_per_plane", "pages_per_block", "page_bytes")}
    raw = geo["channels"] * geo["ways"] * geo["dies_per_way"] * geo["planes_per_die"] * geo["blocks_per_plane"] * \
        geo["pages_per_block"] * geo["page_bytes"]
    t_read = effective(r, "nand.t_read_us")
    t_read = sum(t_read) / len(t_read) if isinstance(t_read, list) else t_read
    clock = effective(r, "core.clock_mhz") * 1e6
    cores = effective(r, "core.count")
    per_read = effective(r, "firmware_cycles.op_issue") + effective(r, "firmware_cycles.op_complete")
    core_bound = (b["pages_read"] * per_read + rec["pages_scanned"] * effective(r, "firmware_cycles.map_update")) \
        / clock / cores
    # The most-read die is at least the mean; the fill spreads evenly, so the mean is what it reads.
    flash_bound = b["pages_read_per_die"] * t_read * 1e-6
    return {"platform": platform, "raw GiB": round(raw / 2**30, 3), "FTL": ftl,
            "pages programmed": rec["pages_scanned"], "pages read": b["pages_read"],
            "reads a die": round(b["pages_read_per_die"]), "blocks erased again": b["blocks_erased_again"],
            "recovery s": round(b["recovery_s"], 4), "flash bound s": round(flash_bound, 4),
            "core bound s": round(core_bound, 4), "map same": b["map_differences"] == 0}


def main():
    a = drive_study_arguments(__doc__, SIZES, FTLS, "recovery_time", lambda p: p.add_argument(
        "--cut-after", type=int, default=2000, help="requests completed before the cut"))
    jobs = [(pl, b, f) for pl, b in a.sizes for f in a.ftls]
    rows = run_jobs(a, one, jobs)
    notes = ["", "Full OOB scan (no map checkpoints; bench/checkpoints.py has them): every block read up to its first erased page, one read in "
             "flight a plane. `flash bound`: the reads of a die times the mean tR; `core bound`: every read's "
             "issue and completion and every programmed page's mapping update in the platform's calibrated "
             "firmware cycles, at its clock, over its cores. The recovery takes the larger, and a little more."]
    write_tables(a.out, "recovery_time", list(rows[0].keys()), rows, notes)
    plt = pyplot()
    if not plt:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for ftl in a.ftls:
        mine = [r for r in rows if r["FTL"] == ftl]
        ax.plot([r["raw GiB"] for r in mine], [r["recovery s"] for r in mine], "o-", label=ftl)
    bounds = sorted({(r["raw GiB"], r["flash bound s"], r["core bound s"]) for r in rows})
    ax.plot([b[0] for b in bounds], [b[1] for b in bounds], "k:", label="flash bound")
    ax.plot([b[0] for b in bounds], [b[2] for b in bounds], "k--", label="core bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("raw capacity (GiB)")
    ax.set_ylabel("recovery after a power cut (s)")
    ax.set_title("Full OOB scan at boot (tiny SLC 64 MiB-1 GiB, default MLC 64-128 GiB)")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "recovery_time.png"), dpi=120)


if __name__ == "__main__":
    main()
