#!/usr/bin/python3
"""Concurrent hybrid merges (issue 32, item 3): every log-block hybrid with ftl.merges=serial
(one merge at a time, every host write waiting while one runs: the old behaviour and the papers'
simulators') and =concurrent (the default on drives of more than one die) on platforms/default.yaml
(8 channels x 4 ways, 32 dies), on three workloads:
- hm0: the bundled MSR hm_0 excerpt (83% reads), open loop on its timestamps, the default write
  buffer, folded onto the drive: what a newcomer's first run sees;
- rsrch1: a 100,000-write stand-in of MSR rsrch_1 (99.7% writes; `ssdsim standin`, seed 1) from
  ../shared/traces, open loop with its times scaled by 2e-5 (its week of 42 s mean gaps becomes
  about 1,200 requests per second, bursts kept), write buffer off: writes reach the FTL as they
  arrive;
- random: closed loop, 4 KiB random requests, 30% reads, QD32, write buffer off, 20,000 requests
  over the whole filled drive: the merge-bound throughput.
Plus BAST on `random` with channel.scheduler=read_first, to show what the read latency concurrent
merges cost under the default FIFO die queues comes from.

Prints and writes hybrid_merges.csv / .md into --out (default: bench/): served IOPS, mean read and
write latency (ms) with their host-queue part, full merges, pages copied, mean and max die busy,
wall seconds.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from bench_common import ROOT, SSDSIM, TRACES_DIR, run_ssdsim, write_tables

FTLS = ["bast", "fast", "faster", "last", "adapt", "waftl", "mnk", "mcsplit", "subgroup", "superblock"]


def workloads(tmp, traces_dir):
    standin = os.path.join(tmp, "rsrch_1-100k.csv")
    done = subprocess.run([SSDSIM, "standin", "-t", os.path.join(traces_dir, "msr", "rsrch_1.csv"), "--writes",
                           "100000", "--seed", "1", "-o", standin], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"ssdsim standin failed: {done.stderr.strip()}")
    return {
        "hm0": ["-t", os.path.join(ROOT, "workloads", "traces", "hm_0.csv"), "--fold"],
        "rsrch1": ["-t", standin, "--fold", "--time-scale", "2e-5", "--set", "firmware.write_buffer=off"],
        "random": ["--synthetic", "random", "--read-fraction", "0.3", "--request-bytes", "4096", "--count", "20000",
                   "--qd", "32", "--set", "firmware.write_buffer=off"],
    }


def latency(report, kind):
    lat = report["host"][f"{kind}_latency_us"]
    if lat["count"] == 0:
        return "-"
    stages = report.get("latency_breakdown", {}).get(kind, {}).get("stages", {})
    queued = stages.get("host_queue", {}).get("mean_us", 0.0)
    return f"{lat['mean'] / 1000:.2f} ({queued / 1000:.2f})"


def row(ftl, workload, merges, r, note=""):
    f = r["ftl_metrics"]
    dies = r["utilization"]["dies"]
    return {
        "ftl": ftl, "workload": workload, "merges": merges + note,
        "IOPS": f"{r['host']['iops']:.1f}",
        "read ms (host queue)": latency(r, "read"),
        "write ms (host queue)": latency(r, "write"),
        "full merges": f.get("full_merges", 0),
        "pages copied": f.get("merge_copies", f.get("gc_copies", 0)),
        "dies busy mean/max %": f"{100 * dies['mean']:.1f}/{100 * dies['max']:.1f}",
        "wall s": f"{r['simulation']['wall_seconds']:.1f}",
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--platform", default=os.path.join(ROOT, "platforms", "default.yaml"))
    ap.add_argument("--traces-dir", default=TRACES_DIR)
    ap.add_argument("--ftls", default=",".join(FTLS))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        loads = workloads(tmp, a.traces_dir)
        for name, args in loads.items():
            for ftl in a.ftls.split(","):
                for merges in ("serial", "concurrent"):
                    r = run_ssdsim(["-p", a.platform, "--ftl", ftl, "--set", f"ftl.merges={merges}", *args],
                                   os.path.join(tmp, "r.json"))
                    rows.append(row(ftl, name, merges, r))
                    print(rows[-1], flush=True)
        for merges in ("serial", "concurrent"):
            r = run_ssdsim(["-p", a.platform, "--ftl", "bast", "--set", f"ftl.merges={merges}", "--set",
                            "channel.scheduler=read_first", *loads["random"]],
                           os.path.join(tmp, "r.json"))
            rows.append(row("bast", "random", merges, r, ", read_first"))
    write_tables(a.out, "hybrid_merges", list(rows[0].keys()), rows, [
        "",
        "Made by `bench/hybrid_merges.py` (see its docstring). Read and write ms: mean latency, in brackets "
        "the part spent in the host's queue. Pages copied: merge copies (the hybrids) or GC copies "
        "(SUPERBLOCK, SubGroup). Dies busy: mean and busiest die over the run. bench/README.md "
        "(\"Concurrent hybrid merges\") explains the differences."])


if __name__ == "__main__":
    main()
