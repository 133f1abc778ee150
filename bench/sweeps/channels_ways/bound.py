#!/usr/bin/python3
"""Closed-form throughput bounds for the channels x ways study, added to results.csv as
bound_iops, bound_throughput_mb_per_s and bound_limit (the resource that sets it).

Each resource's bound is how many requests per second it could serve if it did nothing else,
from the point's effective parameters (its report) and the work one request gives it:

  die       tR or tPROG plus the page transfers of its operations; a 4 KiB write into an 8 KiB page
            reads the old page first (read-modify-write) and programs two planes at once
            (multi-plane), a 128 KiB read pairs the pages of a die's two planes in one tR
  channel   command cycles plus one page transfer per flash operation
  core      the firmware cycles the platform charges per request (firmware_cycles.*, the FTL's
            own firmware_cycles.<ftl> where given), at the core clock, for every core
  host link request bytes over the PCIe link (lanes x GT/s x encoding)
  DRAM      every byte crosses the DRAM twice (flash <-> buffer, buffer <-> host)

The bound is the smallest. Beside it, bound_cores_with_wait_mb_per_s: the cores' bound with the
memory wait each run measured per request added to the cycles (not closed form: how long the
cores' cache misses waited depends on the run), where core-bound points sit. The closed-form
bound ignores those waits and the
multi-plane pairing of random reads that a deep queue makes possible, which is why a measured
point can sit a few percent above it (random reads on one die) or well below it (a core stalled
on DRAM contention): README.md explains each with the report's counters.

Usage: bench/sweeps/channels_ways/bound.py [DIR]   (default: this folder)
"""
import csv
import json
import os
import sys

WORKLOADS = {  # request bytes, read?, random?
    "rand-read-4k": (4096, True, True),
    "rand-write-4k": (4096, False, True),
    "seq-read-128k": (131072, True, False),
}


def bounds(p, request_bytes, read):
    """The firmware cycles a request costs, and the requests per second each resource allows.
    p: effective parameters."""
    page = p["geometry.page_bytes"]
    pages = max(1, -(-request_bytes // page))
    rate = p["channel.rate_mts"] * 1e6 * p["channel.width_bits"] / 8  # bytes/s on a channel
    xfer = page / rate
    cmd = p["nand.cmd_cycle_ns"] * 1e-9
    t_read = sum(p["nand.t_read_us"]) / len(p["nand.t_read_us"]) * 1e-6
    t_prog = sum(p["nand.t_prog_us"]) / len(p["nand.t_prog_us"]) * 1e-6
    planes = p["geometry.planes_per_die"] if p["nand.multiplane"] else 1
    dies = p["geometry.channels"] * p["geometry.ways"] * p["geometry.dies_per_way"]
    read_cmd, prog_cmd = p["nand.read_cmd_cycles"] * cmd, p["nand.program_cmd_cycles"] * cmd
    # The FTL's own costs (firmware_cycles.<ftl>, effective as ftl.cycles.*) over the platform's.
    c = {k[len("firmware_cycles."):]: v for k, v in p.items() if k.startswith("firmware_cycles.")}
    c.update({k[len("ftl.cycles."):]: v for k, v in p.items() if k.startswith("ftl.cycles.")})
    # Per operation, by what it is (firmware_cycles splits flash reads, programs and host DMAs).
    flash_read = c["op_issue"] + c["op_complete"]
    program = c.get("op_issue_program", c["op_issue"]) + c.get("op_complete_program", c["op_complete"])
    dma_in = c.get("op_issue_dma_in", c["op_issue"]) + c.get("op_complete_dma_in", c["op_complete"])
    dma_out = c.get("op_issue_dma_out", c["op_issue"]) + c.get("op_complete_dma_out", c["op_complete"])
    buffered = p.get("firmware.write_buffer", "off") != "off"
    per_buffered_page = c.get("buffer_insert", 0) + c.get("buffer_evict", 0) if buffered else 0
    if read:
        # A sequential request's pages pair up across a die's planes (one tR for `planes` pages).
        tr_per_page = t_read / planes if pages >= planes else t_read
        die_time = pages * (read_cmd + tr_per_page + xfer)
        channel_time = pages * (read_cmd + xfer)
        cycles = c["host_command"] + c["host_complete"] + pages * (c["host_page"] + c["map_lookup"] + flash_read) + dma_out
    else:
        partial = request_bytes % page != 0
        die_time = pages * ((read_cmd + t_read + xfer if partial else 0) + prog_cmd + xfer + t_prog / planes)
        channel_time = pages * ((read_cmd + xfer if partial else 0) + prog_cmd + xfer)
        # The host DMA; per page the old page's read (partial writes) and the program.
        cycles = (c["host_command"] + c["host_complete"] + dma_in +
                  pages * (c["host_page"] + c["map_lookup"] + c["map_update"] + c["page_allocate"] + program +
                           (flash_read if partial else 0) + per_buffered_page))
    link = p["host.lanes"] * p["host.lane_gtps"] * 1e9 * p["host.encoding"] / 8
    dram = p["dram.bandwidth_mbps"] * 1e6
    return cycles, {
        "dies": dies / die_time,
        "channels": p["geometry.channels"] / channel_time,
        "cores": p["core.count"] * p["core.clock_mhz"] * 1e6 / cycles,
        "host link": link / request_bytes,
        "dram": dram / (request_bytes + pages * page),
    }


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(folder, "results.csv")
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        columns = [c for c in reader.fieldnames if not c.startswith("bound_")]
        rows = list(reader)
    for r in rows:
        if r["status"] != "ok":
            continue
        with open(os.path.join(folder, r["report"])) as f:
            report = json.load(f)
        params = report["platform"]["effective"]
        request_bytes, read, _ = WORKLOADS[r["workload_name"]]
        cycles, per_resource = bounds(params, request_bytes, read)
        limit = min(per_resource, key=per_resource.get)
        r["bound_iops"] = per_resource[limit]
        r["bound_throughput_mb_per_s"] = per_resource[limit] * request_bytes / 1e6
        r["bound_limit"] = limit
        # Not closed form: the cores' bound with the memory wait the run measured per request
        # (its tables' and records' cache misses behind the data path) added to the cycles.
        wait_s = sum(c["memory_wait_us"] for c in report["hardware"]["cores"]["per_core"]) / 1e6 / \
            report["host"]["requests"]
        r["bound_cores_with_wait_mb_per_s"] = params["core.count"] / (
            cycles / (params["core.clock_mhz"] * 1e6) + wait_s) * request_bytes / 1e6
    columns = columns[:-1] + ["bound_iops", "bound_throughput_mb_per_s", "bound_limit",
                              "bound_cores_with_wait_mb_per_s", columns[-1]]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    print(path)


if __name__ == "__main__":
    main()
