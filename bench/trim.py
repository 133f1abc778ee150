#!/usr/bin/python3
"""What TRIM buys each FTL: write amplification and throughput of steady random writes with a share of them trims (issue 36).

Each run fills the drive (--precondition fill), then replays random 4 KiB requests over the whole
logical space, closed loop at QD16, of which a share deallocates its page instead of writing it
(a job file's trim_share; common/host_op.h), as a file system's deletes reach the drive. In steady
state a share T of trims keeps about T of the logical pages deallocated (trims free mapped pages at
rate T(1 - u), writes map free ones at (1 - T)u, level at u = T), pages GC and merges no longer copy.
Per FTL and share: the FTL's WAF (flash pages programmed per host page written), the write IOPS
and MB/s, the copies (GC's or merges'), the pages the FTL deallocated, and the mean write latency.
The write buffer is off, so every write reaches the FTL. Writes trim.csv/.md into --out (default
bench/).
"""
import os

from bench_common import ROOT, run_jobs, run_ssdsim, study_arguments, write_tables

FTLS = ["page_mapping", "dftl", "cast", "bast", "fast", "faster", "last", "adapt", "waftl", "mnk", "mcsplit",
        "superblock", "subgroup"]
SHARES = [0.0, 0.1, 0.25]

JOB = """# bench/trim.py: random 4 KiB requests, a share of them trims
jobs:
  - name: files
    pattern: random
    read_fraction: 0
    block_size: 4096
    count: {count}
    trim_share: {share}
    seed: 3
"""


def copies(ftl):
    """GC's copies, or a log-block hybrid's merge copies."""
    return ftl.get("gc_copies", 0) + ftl.get("merge_copies", 0)


def one(a, ftl, share):
    name = f"{ftl}-{share}"
    jobs = os.path.join(a.work, f"trim-{share}.yaml")
    report = os.path.join(a.work, name + ".json")
    r = run_ssdsim(["-p", a.platform, "--ftl", ftl, "--jobs", jobs, "--qd", "16", "--precondition", "fill",
                    "--set", "firmware.write_buffer=off", *a.extra], report, may_fail=True)
    if "failed" in r:
        return {"FTL": ftl, "trim share": share, "WAF": r["failed"], "write IOPS": "-", "write MB/s": "-",
                "copies": "-", "pages deallocated": "-", "mean write us": "-", "mismatches": "-"}
    h, f = r["host"], r["ftl_metrics"]
    return {"FTL": ftl, "trim share": share, "WAF": round(f["waf"], 3) if f["waf"] is not None else None,
            "write IOPS": round(h["writes"] / h["simulated_seconds"]),
            "write MB/s": round(h["write_bytes"] / 1e6 / h["simulated_seconds"], 1),
            "copies": copies(f), "pages deallocated": f.get("trimmed_pages", 0),
            "mean write us": round(h["write_latency_us"]["mean"], 1), "mismatches": r["integrity"]["mismatches"]}


def main():
    def options(p):
        p.add_argument("--platform", default=os.path.join(ROOT, "platforms", "tiny.yaml"))
        p.add_argument("--count", type=int, default=80000, help="requests a run (writes and trims)")
        p.add_argument("--set", dest="extra", action="append", default=[], help="more --set key=value for every run")
    a = study_arguments(__doc__, FTLS, "trim", options)
    a.extra = [x for kv in a.extra for x in ("--set", kv)]
    for share in SHARES:
        with open(os.path.join(a.work, f"trim-{share}.yaml"), "w") as f:
            f.write(JOB.format(count=a.count, share=share))
    rows = run_jobs(a, one, [(ftl, share) for ftl in a.ftls for share in SHARES])
    notes = ["", f"`bench/trim.py` ({a.count} requests a run on {os.path.relpath(a.platform, ROOT)}, filled first, "
             "QD16, write buffer off): `ssdsim run --jobs results/trim/trim-SHARE.yaml --precondition fill --set "
             "firmware.write_buffer=off`. `copies`: GC's copies, or the merges' for the log-block hybrids; `pages "
             "deallocated`: mapped pages the FTL dropped (a trim of a page already free deallocates nothing)."]
    write_tables(a.out, "trim", list(rows[0].keys()), rows, notes)


if __name__ == "__main__":
    main()
