#!/usr/bin/python3
"""Where the annotated core's memory time parts from the ISS's: 4 KiB random reads and writes on
a platform, at two queue depths and two ranges (16 MiB, the whole drive), each run on the ISS
core and on the annotated core with its data cache on (core.annotated_dcache); per request, the
ISS's stall time and line fills against the annotated core's table wait and misses.

The ISS's loads and stores reach every structure of the firmware; the annotated core sees only
the tables the firmware declares and its records (operations in flight, write-buffer entries:
fw::Hal::touch_record). Where the two part (deep queues, wide ranges) is the firmware's working
set the model does not yet follow (issue 33). One core, fresh drive (the ISS cannot precondition).

Usage: tools/cache_gap.py [-p platforms/default.yaml] [--count 20000] [--clock 400]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))


def run(platform, model, read_fraction, qd, range_bytes, count, clock, work):
    out = os.path.join(work, f"{model}-{read_fraction}-{qd}-{range_bytes}.json")
    cmd = [SSDSIM, "run", "-p", platform, "--set", "core.count=1", "--set", f"core.model={model}",
           "--set", f"core.clock_mhz={clock}", "--set", "host.queue_depth=1024", "--precondition", "none",
           "--synthetic", "random", "--read-fraction", str(read_fraction), "--request-bytes", "4096",
           "--count", str(count), "--qd", str(qd), "--range-bytes", str(range_bytes), "--seed", "1",
           "--no-vcd", "-q", "--report", out]
    if model == "annotated":
        cmd += ["--set", "core.annotated_dcache=true"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"cache_gap: {' '.join(cmd)} failed: {done.stderr.strip()}")
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", "--platform", default=os.path.join(ROOT, "platforms", "default.yaml"))
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--clock", type=float, default=400)
    a = ap.parse_args()
    print("| op | qd | range | ISS stall us | ISS bus accesses | annotated wait us | annotated misses | annotated hits |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        for op, rf in (("read", 1), ("write", 0)):
            for qd in (16, 512):
                for rng, name in ((16 << 20, "16 MiB"), (0, "whole drive")):
                    iss = run(a.platform, "iss", rf, qd, rng, a.count, a.clock, work)
                    ann = run(a.platform, "annotated", rf, qd, rng, a.count, a.clock, work)
                    n, m = iss["host"]["reads"] + iss["host"]["writes"], ann["host"]["reads"] + ann["host"]["writes"]
                    i = iss["firmware_iss"]
                    stall_us = sum(i["stall_cycles"].values()) / n / a.clock
                    core = ann["hardware"]["cores"]["per_core"][0]
                    print(f"| {op} | {qd} | {name} | {stall_us:.2f} | {i['bus_accesses'] / n:.1f} | "
                          f"{core['memory_wait_us'] / m:.2f} | {core.get('dcache_misses', 0) / m:.1f} | "
                          f"{core.get('dcache_hits', 0) / m:.1f} |", flush=True)


if __name__ == "__main__":
    main()
