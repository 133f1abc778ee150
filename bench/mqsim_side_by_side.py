#!/usr/bin/python3
"""ssdsim against MQSim on the same drive and workload: simulation cost and simulated results.

For each scenario the MQSim SSD configuration and workload XML are written from the platform's
effective parameters (`ssdsim validate PLATFORM`), both simulators run alternately --runs times
as whole processes (user + system CPU seconds and peak RSS from wait4), and a Markdown table per
scenario gives requests per CPU-second and peak memory (medians, with the ratio ssdsim / MQSim)
and the simulated IOPS and latency side by side. Called by bench/vs_mqsim.sh; see its header.

MQSim writes no per-request log. Its result XML (<workload>_scenario_1.xml) gives IOPS as
requests / the time of the last simulator event in whole seconds (integer division: "inf" for a
run under a second, 10,000 for 10,000 requests in 1.9 s), and mean and max latencies truncated to
whole microseconds; no percentiles. With Enable_ResponseTime_Logging it also writes
<workload>.IO_Flow.No_0.log: a line (time in us, mean device response time and mean end-to-end
delay in us of the requests completed since the previous line) at the first completion after
each logging period. The script sets the period to COUNT x 2 ns and takes the last line's time
as the time of the last completion: IOPS = requests / that time, too high by at most one period
(IOPS x 2e-9 relative: 0.04% at 200,000 IOPS).

Scenario f puts two flows on one drive, each on an NVMe queue of its own (ssdsim: a job file with
`queue` per job and --alone-runs; MQSim: both flows in one IO_Scenario, then one run per flow
alone) and gives, per simulator and flow, the mean response time with the other flow and alone,
the slowdown (shared / alone) and the fairness (smallest slowdown / largest), as MQSim's FAST'18
paper defines them. MQSim's mean is each flow's End_to_End_Request_Delay; its IOPS the flow's
requests over the time of its last logged completion (a log period of 1 us).
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTOR = 512

# name, title, platform, pattern, read fraction, request bytes, count, QD, ssdsim precondition,
# MQSim preconditioning occupancy in percent (None: preconditioning off)
SCENARIOS = [
    ("a", "fresh 4 KiB random write, QD16", "mqsim_default_512g", "random", 0.0, 4096, 1_000_000, 16,
     "none", None),
    ("b", "fresh 4 KiB random write, QD16", "mqsim_timing_16g", "random", 0.0, 4096, 1_000_000, 16,
     "none", None),
    ("c", "4 KiB random read, QD16, filled drive", "mqsim_default_512g", "random", 1.0, 4096, 1_000_000, 16,
     "fill", 100),
    # 99: MQSim's streaming preconditioning at 100% never ends when the logical space is not a whole
    # number of requests (it writes whole requests and wraps before the last partial one)
    ("d", "128 KiB sequential read, QD64, filled drive", "mqsim_default_512g", "sequential", 1.0, 131072,
     100_000, 64, "fill", 99),
    ("e", "steady-state 4 KiB random write, QD16", "mqsim_timing_16g", "random", 0.0, 4096, 1_000_000, 16,
     "fill+steady", 100),
]

# The two-flow scenario (multi-tenant, MQSim's FAST'18 measures): name, title, platform, ssdsim
# precondition, MQSim preconditioning occupancy in percent, and the flows, each on a submission
# queue of its own and on its own half of the logical space, both closed loop. Each flow's mean
# response time is taken with the other flow and alone (the same flow, the other absent); its
# slowdown is shared mean / alone mean and the fairness min slowdown / max slowdown.
TWO_FLOWS = ("f", "two flows on one drive: slowdown and fairness, filled drive", "mqsim_timing_16g", "fill", 100, [
    {"label": "flow 0 (4 KiB random, 70% reads, QD4)", "pattern": "random", "read": 0.7, "bytes": 4096,
     "count": 40_000, "qd": 4, "seed": 1, "mqsim_seed": 798},
    {"label": "flow 1 (64 KiB random, 10% reads, QD16)", "pattern": "random", "read": 0.1, "bytes": 65536,
     "count": 8_000, "qd": 16, "seed": 2, "mqsim_seed": 5003},
])


def die(msg):
    sys.exit(f"mqsim_side_by_side: {msg}")


# ---------------------------------------------------------------------------------------------
# Platform parameters

def platform_params(ssdsim, platform_file, env):
    """The effective parameters `ssdsim validate` prints, as a dict of strings (lists as lists)."""
    done = subprocess.run([ssdsim, "validate", platform_file], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        die(f"ssdsim validate {platform_file} failed: {done.stderr.strip() or done.stdout.strip()}")
    params = {}
    for line in done.stdout.splitlines():
        m = re.match(r"^\s+([A-Za-z0-9_.]+) = (.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if value.startswith("[") and value.endswith("]"):
            value = [v.strip() for v in value[1:-1].split(",") if v.strip()]
        params[key] = value
    for needed in ("geometry.channels", "geometry.ways", "geometry.dies_per_way", "geometry.planes_per_die",
                   "geometry.blocks_per_plane", "geometry.pages_per_block", "geometry.page_bytes",
                   "nand.t_read_us", "nand.t_prog_us", "nand.t_erase_us", "channel.width_bits",
                   "channel.rate_mts", "ftl.overprovisioning", "ftl.name", "firmware.write_buffer"):
        if needed not in params:
            die(f"`ssdsim validate {platform_file}` printed no {needed}")
    return params


def num(params, key, default=None):
    v = params.get(key, default)
    if v is None:
        die(f"platform parameter {key} missing")
    return float(v[0] if isinstance(v, list) else v)


def count(params, key, default=None):
    return int(round(num(params, key, default)))


def us_list_to_ns(values):
    return [int(round(float(v) * 1000)) for v in values]


# ---------------------------------------------------------------------------------------------
# MQSim input files

def xml_block(tag, fields, indent):
    pad = "\t" * indent
    lines = [f"{pad}<{tag}>"]
    for k, v in fields:
        if isinstance(v, tuple) and v and v[0] == "block":
            lines.append(xml_block(k, v[1], indent + 1))
        else:
            lines.append(f"{pad}\t<{k}>{v}</{k}>")
    lines.append(f"{pad}</{tag}>")
    return "\n".join(lines)


MQSIM_CHOICES = [
    "Caching_Mechanism ADVANCED, Data_Cache_Sharing_Mode SHARED (MQSim's defaults); the flow's "
    "Device_Level_Data_Caching_Mode WRITE_CACHE when firmware.write_buffer is on (TURNED_OFF when off), "
    "Data_Cache_Capacity = dram.size_mib x firmware.write_buffer_dram_share",
    "Data_Cache_DRAM_Data_Rate x Data_Cache_DRAM_Data_Busrt_Size (4) x 2 = dram.bandwidth_mbps "
    "(MQSim's shipped file has 100 MT/s x 1 byte, 200 MB/s), tRCD = tCL = tRP = 13 ns",
    "Ideal_Mapping_Table true for page_mapping (ssdsim holds the whole L2P table in DRAM; MQSim's default "
    "is a 2 MiB cached mapping table with translation reads and writes on flash)",
    "GC_Block_Selection_Policy GREEDY (ssdsim's GC is greedy; MQSim's default RGA), GC_Exec_Threshold = "
    "ftl.gc_threshold_blocks / blocks_per_plane but at least MQSim's default 5% (with less, MQSim's "
    "steady-state preconditioning leaves under 10 free blocks a plane, where MQSim stops host writes, and the "
    "run deadlocks; 6 blocks more for each further flow, whose write frontiers hold 3 blocks a plane more), "
    "Preemptible_GC_Enabled false, Use_Copyback_for_GC false",
    "Static_Wearleveling_Enabled false (ssdsim has none); Dynamic_Wearleveling_Enabled true (MQSim's default)",
    "CMD_Suspension_Support from nand.program_suspend / nand.erase_suspend (NONE here; MQSim's default ERASE)",
    "Transaction_Scheduling_Policy OUT_OF_ORDER (MQSim's built-in default; it ignores the flows' priority "
    "classes, which scenario f leaves equal anyway: HIGH), "
    "Plane_Allocation_Scheme CWDP (MQSim's default; its allocation is static, by logical page)",
    "IO_Queue_Depth = host.queue_depth + 1 (MQSim's submission ring holds one entry fewer than its size; "
    "every flow's queue), Queue_Fetch_Size = min(512, that) (per queue: MQSim has no limit over all queues)",
    "PCIe_Lane_Bandwidth = host.lane_gtps x host.encoding / 8 GB/s, PCIe_Lane_Count = host.lanes",
    "Flash_Technology MLC with LSB = CSB = MSB latencies when the platform gives one tR/tPROG",
    "workload: QUEUE_DEPTH generator, Working_Set_Percentage 100, addresses aligned to the request size, "
    "FIXED size, Stop_Time 0 and Total_Requests_To_Generate = the count; Initial_Occupancy_Percentage 100 "
    "where the drive is filled (MQSim's random-uniform preconditioning caps it at 90% of the logical pages), "
    "99 for the sequential read (at 100 MQSim's streaming preconditioning never ends)",
    "scenario f: both flows in one IO_Scenario (an NVMe submission queue each), Priority_Class HIGH for both, "
    "all channels, chips, dies and planes for both (MQSim then gives each flow its own equal part of the logical "
    "space: disjoint halves); each flow alone: the same flow as the only one, with Working_Set_Percentage 50 "
    "(alone, its logical space is the whole drive); the response-time log period 1 us",
]


def mqsim_ssdconfig(p, sc, log_period_ns, preconditioning):
    channels = count(p, "geometry.channels")
    ways = count(p, "geometry.ways")
    dies = count(p, "geometry.dies_per_way")
    planes = count(p, "geometry.planes_per_die")
    blocks = count(p, "geometry.blocks_per_plane")
    pages = count(p, "geometry.pages_per_block")
    page_bytes = count(p, "geometry.page_bytes")
    oob = count(p, "geometry.oob_bytes", 448)
    t_read = us_list_to_ns(p["nand.t_read_us"] if isinstance(p["nand.t_read_us"], list) else [p["nand.t_read_us"]])
    t_prog = us_list_to_ns(p["nand.t_prog_us"] if isinstance(p["nand.t_prog_us"], list) else [p["nand.t_prog_us"]])
    levels = max(len(t_read), len(t_prog))
    if levels > 3:
        die("MQSim models at most 3 page types (TLC); the platform lists more")
    tech = {1: "MLC", 2: "MLC", 3: "TLC"}[levels]  # one value: MLC with equal latencies, as MQSim's own default file

    def lsb_csb_msb(vals):
        if len(vals) == 1:
            return vals * 3
        if len(vals) == 2:  # MLC: LSB, MSB (CSB unused)
            return [vals[0], vals[1], vals[1]]
        return vals

    r = lsb_csb_msb(t_read)
    w = lsb_csb_msb(t_prog)
    width_bits = count(p, "channel.width_bits")
    if width_bits % 8:
        die("MQSim's channel width is in bytes; channel.width_bits must be a multiple of 8")
    rate = num(p, "channel.rate_mts")
    op = num(p, "ftl.overprovisioning")
    ftl = p["ftl.name"]
    if ftl == "page_mapping":
        ideal, cmt = "true", 2 * 1024 * 1024
    elif ftl in ("dftl", "cast"):
        ideal = "false"
        cmt = count(p, "ftl.cmt_bytes", count(p, "sram.size_kib", 2048) * 1024)
    else:
        die(f"ftl.name = {ftl}: MQSim has page-level mapping (with a full or cached table) only")
    gc_thr_blocks = num(p, "ftl.gc_threshold_blocks", 0.05 * blocks)
    # MQSim starts GC below (unsigned)(GC_Exec_Threshold x blocks) free blocks (at least 10); the
    # half block keeps the product from truncating one below the count. Its steady-state
    # preconditioning leaves half the threshold free and it stops host writes on a plane below 10
    # free blocks: under about 24 blocks the run deadlocks (32 of 10,000 requests served on the
    # 16 GiB drive with ssdsim's 8, then a segfault), so the threshold is at least MQSim's default 5%.
    # Each further flow holds 3 more write-frontier blocks a plane (data, GC, translation): with two
    # flows 29 blocks deadlock as above (3 of 400 requests served) and 30 run, so 6 more a flow
    gc_thr_blocks = max(gc_thr_blocks, int(0.05 * blocks) + 6 * (sc.get("flows", 1) - 1))
    gc_threshold = (gc_thr_blocks + 0.5) / blocks
    wb = p["firmware.write_buffer"]
    cache_bytes = int(num(p, "dram.size_mib", 1024) * num(p, "firmware.write_buffer_dram_share", 0.0625) * 1024 * 1024)
    if cache_bytes >= 2**32:
        die("MQSim's Data_Cache_Capacity is a 32-bit byte count; the write buffer is larger")
    dram_bw = num(p, "dram.bandwidth_mbps", 6400)
    burst = 4
    dram_rate = max(1, int(round(dram_bw / (2 * burst))))
    lanes = count(p, "host.lanes", 4)
    lane_gbps = num(p, "host.lane_gtps", 8.0) * num(p, "host.encoding", 128 / 130) / 8.0
    sq = count(p, "host.queue_depth", 64) + 1
    if sc["qd"] + 1 > sq:
        sq = sc["qd"] + 1
    prog_susp = p.get("nand.program_suspend", "false") == "true"
    erase_susp = p.get("nand.erase_suspend", "false") == "true"
    susp = {(False, False): "NONE", (True, False): "PROGRAM", (False, True): "ERASE", (True, True): "PROGRAM_ERASE"}[
        (prog_susp, erase_susp)]
    t_susp_ns = int(round(num(p, "nand.t_suspend_us", 20) * 1000))
    host = [
        ("PCIe_Lane_Bandwidth", f"{lane_gbps:.6f}"),
        ("PCIe_Lane_Count", lanes),
        ("SATA_Processing_Delay", 400000),
        ("Enable_ResponseTime_Logging", "true"),
        ("ResponseTime_Logging_Period_Length", log_period_ns),
    ]
    flash = [
        ("Flash_Technology", tech),
        ("CMD_Suspension_Support", susp),
        ("Page_Read_Latency_LSB", r[0]), ("Page_Read_Latency_CSB", r[1]), ("Page_Read_Latency_MSB", r[2]),
        ("Page_Program_Latency_LSB", w[0]), ("Page_Program_Latency_CSB", w[1]), ("Page_Program_Latency_MSB", w[2]),
        ("Block_Erase_Latency", int(round(num(p, "nand.t_erase_us") * 1000))),
        ("Block_PE_Cycles_Limit", 10000),
        ("Suspend_Erase_Time", t_susp_ns),
        ("Suspend_Program_Time", t_susp_ns),
        ("Die_No_Per_Chip", dies),
        ("Plane_No_Per_Die", planes),
        ("Block_No_Per_Plane", blocks),
        ("Page_No_Per_Block", pages),
        ("Page_Capacity", page_bytes),
        ("Page_Metadat_Capacity", oob),
    ]
    device = [
        ("Seed", 321),
        ("Enabled_Preconditioning", "true" if preconditioning else "false"),
        ("Memory_Type", "FLASH"),
        ("HostInterface_Type", "NVME"),
        ("IO_Queue_Depth", sq),
        ("Queue_Fetch_Size", min(512, sq)),
        ("Caching_Mechanism", "ADVANCED"),
        ("Data_Cache_Sharing_Mode", "SHARED"),
        ("Data_Cache_Capacity", cache_bytes if wb != "off" else 0),
        ("Data_Cache_DRAM_Row_Size", 8192),
        ("Data_Cache_DRAM_Data_Rate", dram_rate),
        ("Data_Cache_DRAM_Data_Busrt_Size", burst),
        ("Data_Cache_DRAM_tRCD", 13),
        ("Data_Cache_DRAM_tCL", 13),
        ("Data_Cache_DRAM_tRP", 13),
        ("Address_Mapping", "PAGE_LEVEL"),
        ("Ideal_Mapping_Table", ideal),
        ("CMT_Capacity", cmt),
        ("CMT_Sharing_Mode", "SHARED"),
        ("Plane_Allocation_Scheme", "CWDP"),
        ("Transaction_Scheduling_Policy", "OUT_OF_ORDER"),
        ("Overprovisioning_Ratio", f"{op:.6f}"),
        ("GC_Exec_Threshold", f"{gc_threshold:.9f}"),
        ("GC_Block_Selection_Policy", "GREEDY"),
        ("Use_Copyback_for_GC", "false"),
        ("Preemptible_GC_Enabled", "false"),
        ("GC_Hard_Threshold", f"{min(0.005, gc_threshold / 2):.9f}"),
        ("Dynamic_Wearleveling_Enabled", "true"),
        ("Static_Wearleveling_Enabled", "false"),
        ("Static_Wearleveling_Threshold", 100),
        ("Preferred_suspend_erase_time_for_read", 700000),
        ("Preferred_suspend_erase_time_for_write", 700000),
        ("Preferred_suspend_write_time_for_read", 100000),
        ("Flash_Channel_Count", channels),
        ("Flash_Channel_Width", width_bits // 8),
        ("Channel_Transfer_Rate", int(round(rate))),
        ("Chip_No_Per_Channel", ways),
        ("Flash_Comm_Protocol", "NVDDR2"),
        ("Flash_Parameter_Set", ("block", flash)),
    ]
    text = '<?xml version="1.0" encoding="us-ascii"?>\n<Execution_Parameter_Set>\n'
    text += xml_block("Host_Parameter_Set", host, 1) + "\n"
    text += xml_block("Device_Parameter_Set", device, 1) + "\n"
    text += "</Execution_Parameter_Set>\n"
    return text


def mqsim_flow(p, sc, occupancy, seed=798, working_set=100):
    """One IO_Flow_Parameter_Set_Synthetic's fields: SC's pattern, read share, size, QD and count."""
    channels, ways = count(p, "geometry.channels"), count(p, "geometry.ways")
    dies, planes = count(p, "geometry.dies_per_way"), count(p, "geometry.planes_per_die")
    ids = lambda n: ",".join(str(i) for i in range(n))
    sectors = sc["bytes"] // SECTOR
    caching = "TURNED_OFF" if p["firmware.write_buffer"] == "off" else "WRITE_CACHE"
    return [
        ("Priority_Class", "HIGH"),
        ("Device_Level_Data_Caching_Mode", caching),
        ("Channel_IDs", ids(channels)),
        ("Chip_IDs", ids(ways)),
        ("Die_IDs", ids(dies)),
        ("Plane_IDs", ids(planes)),
        ("Initial_Occupancy_Percentage", occupancy if occupancy else 1),
        ("Working_Set_Percentage", working_set),
        ("Synthetic_Generator_Type", "QUEUE_DEPTH"),
        ("Read_Percentage", int(round(sc["read"] * 100))),
        ("Address_Distribution", "RANDOM_UNIFORM" if sc["pattern"] == "random" else "STREAMING"),
        ("Percentage_of_Hot_Region", 0),
        ("Generated_Aligned_Addresses", "true"),
        ("Address_Alignment_Unit", sc.get("align_sectors", sectors)),
        ("Request_Size_Distribution", "FIXED"),
        ("Average_Request_Size", sectors),
        ("Variance_Request_Size", 0),
        ("Seed", seed),
        ("Average_No_of_Reqs_in_Queue", sc["qd"]),
        ("Bandwidth", 0),
        ("Stop_Time", 0),
        ("Total_Requests_To_Generate", sc["count"]),
    ]


def mqsim_scenario(flows):
    """A workload file of one IO_Scenario holding the given flows (lists of fields), run together."""
    return ('<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n\t<IO_Scenario>\n'
            + "\n".join(xml_block("IO_Flow_Parameter_Set_Synthetic", f, 2) for f in flows)
            + "\n\t</IO_Scenario>\n</MQSim_IO_Scenarios>\n")


def mqsim_workload(p, sc, occupancy):
    return mqsim_scenario([mqsim_flow(p, sc, occupancy)])


# ---------------------------------------------------------------------------------------------
# Running a process and measuring it

def run_measured(cmd, cwd, env, timeout_s, stdout_path):
    """Runs CMD; returns dict(rc, cpu_s, maxrss_mib, wall_s, timed_out)."""
    t0 = time.monotonic()
    with open(stdout_path, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        timed_out = False
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            if timeout_s and time.monotonic() - t0 > timeout_s:
                timed_out = True
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the child's own session: only what we started
                except ProcessLookupError:
                    pass
                pid, status, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "rc": proc.returncode,
        "cpu_s": ru.ru_utime + ru.ru_stime,
        "maxrss_mib": ru.ru_maxrss / 1024.0,
        "wall_s": time.monotonic() - t0,
        "timed_out": timed_out,
    }


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


# ---------------------------------------------------------------------------------------------
# Results

def ssdsim_results(report_path):
    with open(report_path) as f:
        r = json.load(f)
    h = r["host"]
    lat = h["latency_us"]
    sim = r.get("simulation", {})
    ftl = r.get("ftl_metrics", {})
    return {
        "requests": h.get("requests", lat.get("count")),
        "iops": float(h["iops"]),
        "mean_us": float(lat["mean"]),
        "p99_us": float(lat["p99"]),
        "waf": ftl.get("drive_waf", ftl.get("waf")),
        "precondition_s": sim.get("precondition_wall_seconds"),
    }


def mqsim_programs(root, planes):
    """Flash programs in MQSim's result XML, for the write amplification (programs per host page written)."""
    ftl = next((el for el in root.iter() if el.tag.endswith(".FTL")), None)
    if ftl is None:
        return 0
    f = {k: int(float(v)) for k, v in ftl.attrib.items() if re.match(r"^-?[0-9.]+$", v)}
    # a multi-plane command programs one page on each of `planes` planes
    return (f.get("Issued_Flash_Program_CMD", 0) + f.get("Issued_Flash_Interleaved_Program_CMD", 0)
            + f.get("Issued_Flash_Copyback_Program_CMD", 0)
            + planes * (f.get("Issued_Flash_Multiplane_Program_CMD", 0)
                        + f.get("Issued_Flash_Interleaved_Multiplane_Program_CMD", 0)
                        + f.get("Issued_Flash_Multiplane_Copyback_Program_CMD", 0)))


def mqsim_last_logged_us(log):
    """The time (us) of the last line of an MQSim response-time log: a completion (see the module's text)."""
    t_last_us = None
    with open(log) as f:
        for line in f:
            fields = line.split("\t")
            if fields and re.match(r"^\d+(\.\d+)?$", fields[0].strip()):
                t_last_us = float(fields[0])
    return t_last_us


def mqsim_results(run_dir, planes):
    xml_path = os.path.join(run_dir, "workload_scenario_1.xml")
    root = ET.parse(xml_path).getroot()
    flow = next((el for el in root.iter() if el.tag.endswith("IO_Flow")), None)
    if flow is None:
        die(f"no IO_Flow element in {xml_path}")
    a = dict(flow.attrib)
    a.update({c.tag: (c.text or "").strip() for c in flow})
    requests = int(a["Request_Count"])
    xml_iops = float(a["IOPS"])  # "inf" when the run lasted under a second (whole seconds, below)
    programs = mqsim_programs(root, planes)
    t_last_us = mqsim_last_logged_us(os.path.join(run_dir, "workload.IO_Flow.No_0.log"))
    if t_last_us and t_last_us > 0:
        iops = requests / (t_last_us * 1e-6)
        iops_src = "log"
    else:
        iops, iops_src = xml_iops, "xml (log empty)"
    prec = None
    out = tail(os.path.join(run_dir, "stdout.txt"), 400)
    served = re.findall(r"total requests serviced:\s*(\d+)", out)
    if served and int(served[-1]) != requests:
        raise ValueError(f"MQSim served {served[-1]} of the {requests} requests it generated")
    m = re.search(r"Duration of preconditioning: (\d+):(\d+):(\d+)", out)
    if m:
        prec = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
    return {
        "requests": requests,
        "iops": iops,
        "iops_source": iops_src,
        "xml_iops": xml_iops,
        "t_last_us": t_last_us,
        "mean_us": float(a["End_to_End_Request_Delay"]),
        "device_us": float(a["Device_Response_Time"]),
        "programs": programs,
        "precondition_s": prec,
    }


def ssdsim_flow_results(report_path):
    """Per flow (queue order): requests, IOPS over its span, mean latency shared and alone, slowdown."""
    with open(report_path) as f:
        r = json.load(f)
    h = r["host"]
    flows = []
    for fl in h["flows"]:
        n = int(fl["reads"]) + int(fl["writes"])
        if fl.get("alone_requests") is not None and int(fl["alone_requests"]) != n:
            raise ValueError(f"queue {fl['queue']}: {fl['alone_requests']} requests alone, {n} shared")
        flows.append({
            "requests": n, "reads": int(fl["reads"]), "writes": int(fl["writes"]),
            "iops": float(fl["iops"]),
            "shared_us": float(fl["latency_us"]["mean"]),
            "alone_us": fl.get("alone_mean_latency_us"),
            "slowdown": fl.get("slowdown"),
            "t_last_us": float(fl["last_completion_s"]) * 1e6 if fl.get("last_completion_s") is not None else None,
        })
    ftl = r.get("ftl_metrics", {})
    return {
        "flows": flows,
        "fairness": h.get("fairness"),
        "waf": ftl.get("drive_waf", ftl.get("waf")),
        "precondition_s": r.get("simulation", {}).get("precondition_wall_seconds"),
    }


def mqsim_flow_results(run_dir, planes, n_flows):
    """Per flow of an MQSim run with N_FLOWS flows in its IO_Scenario: the counts, IOPS (requests / the
    time of its last logged completion), mean end-to-end delay and device response time (whole us)."""
    xml_path = os.path.join(run_dir, "workload_scenario_1.xml")
    root = ET.parse(xml_path).getroot()
    els = [el for el in root.iter() if el.tag.endswith("IO_Flow")]
    if len(els) != n_flows:
        raise ValueError(f"{len(els)} IO_Flow elements in {xml_path}, expected {n_flows}")
    out = tail(os.path.join(run_dir, "stdout.txt"), 400)
    served = re.findall(r"total requests generated:\s*(\d+)\s*total requests serviced:\s*(\d+)", out)
    if len(served) == n_flows:
        for i, (gen, done) in enumerate(served):
            if gen != done:
                raise ValueError(f"MQSim flow {i} served {done} of the {gen} requests it generated")
    flows = []
    for i, el in enumerate(els):
        a = dict(el.attrib)
        a.update({c.tag: (c.text or "").strip() for c in el})
        n = int(a["Request_Count"])
        t_last_us = mqsim_last_logged_us(os.path.join(run_dir, f"workload.IO_Flow.No_{i}.log"))
        if not t_last_us:
            raise ValueError(f"MQSim flow {i}: empty response-time log")
        flows.append({
            "requests": n, "reads": int(a["Read_Request_Count"]), "writes": int(a["Write_Request_Count"]),
            "iops": n / (t_last_us * 1e-6), "t_last_us": t_last_us,
            "mean_us": float(a["End_to_End_Request_Delay"]), "device_us": float(a["Device_Response_Time"]),
        })
    m = re.search(r"Duration of preconditioning: (\d+):(\d+):(\d+)", out)
    prec = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) if m else None
    return {"flows": flows, "programs": mqsim_programs(root, planes), "precondition_s": prec}


def ssdsim_capacity(ssdsim, pfile, env, work):
    """The drive's logical capacity in bytes (the addressed range of a short synthetic run)."""
    report = os.path.join(work, "capacity.json")
    done = subprocess.run([ssdsim, "run", "-p", pfile, "--synthetic", "random", "--count", "10", "--precondition",
                           "none", "--no-vcd", "-q", "--progress", "never", "--report", report],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        die(f"ssdsim run (for the drive's capacity) failed: {done.stderr.strip()[-500:]}")
    with open(report) as f:
        desc = json.load(f)["workload"]["description"]
    os.remove(report)
    m = re.search(r"range \[0, (\d+)\) B", desc)
    if not m:
        die(f"no range in the workload description {desc!r}")
    return int(m.group(1))


def nbytes_list(flows):
    return "requests aligned to their sizes (" + ", ".join(f"{fd['bytes'] // 1024} KiB" for fd in flows) + ")"


def two_flow_scenario(args, ssdsim, mqsim, env, data_dir, work):
    key, title, platform, precond, occupancy, flow_defs = TWO_FLOWS
    pfile, p = scenario_platform(args, ssdsim, env, data_dir, platform)
    flows = [dict(fd, count=max(fd["qd"] * 4, fd["count"] // 100) if args.quick else fd["count"]) for fd in flow_defs]
    nf = len(flows)
    planes = count(p, "geometry.planes_per_die")
    page_bytes = count(p, "geometry.page_bytes")
    sdir = os.path.join(work, key)
    os.makedirs(sdir, exist_ok=True)

    # ssdsim: a job file, one job per flow on queue i, over the i-th of nf equal parts of the logical space
    capacity = ssdsim_capacity(ssdsim, pfile, env, sdir)
    unit = max(fd["bytes"] for fd in flows)
    part = capacity // nf // unit * unit
    jobs = os.path.join(sdir, "jobs.yaml")
    with open(jobs, "w") as f:
        f.write(f"# bench/mqsim_side_by_side.py scenario {key}: {title}\njobs:\n")
        for i, fd in enumerate(flows):
            f.write(f"  - name: {key}{i}\n    pattern: {fd['pattern']}\n    read_fraction: {fd['read']}\n"
                    f"    block_size: {fd['bytes']}\n    count: {fd['count']}\n    range_start: {i * part}\n"
                    f"    range_bytes: {part}\n    seed: {fd['seed']}\n    iodepth: {fd['qd']}\n    queue: {i}\n")
    ssd_cmd = [ssdsim, "run", "-p", pfile, "--jobs", jobs, "--alone-runs", "--precondition", precond,
               "--no-vcd", "-q", "--progress", "never"]

    # MQSim: one run with every flow in one IO_Scenario (MQSim gives each flow its own logical space,
    # the drive split by the flows' shares of the planes: here equal halves), and one run per flow
    # alone. Alone, the flow's space is the whole drive, so Working_Set_Percentage = 100 / nf keeps
    # its addresses to a range of the same size (MQSim's preconditioning then still fills the drive).
    log_period_ns = 1000  # a log line at about every completion: the last one is the flow's last completion
    mq_sets = ["shared"] + [f"alone{i}" for i in range(nf)]
    mq = {"occupancy": occupancy}  # MQSim's preconditioning (None: off), changed by the fallbacks below

    def write_mqsim_inputs():
        occ = mq["occupancy"]
        cfg = mqsim_ssdconfig(p, {"qd": max(fd["qd"] for fd in flows), "flows": nf}, log_period_ns, occ is not None)
        for name in mq_sets:
            d = os.path.join(sdir, name)
            os.makedirs(d, exist_ok=True)
            if name == "shared":
                fl = [mqsim_flow(p, fd, occ, seed=fd["mqsim_seed"]) for fd in flows]
            else:
                fd = flows[int(name[5:])]
                fl = [mqsim_flow(p, fd, occ, seed=fd["mqsim_seed"], working_set=100 // nf)]
            with open(os.path.join(d, "ssdconfig.xml"), "w") as f:
                f.write(cfg)
            with open(os.path.join(d, "workload.xml"), "w") as f:
                f.write(mqsim_scenario(fl))

    write_mqsim_inputs()
    total = " + ".join(f"{fd['count']:,}" for fd in flows)
    print(f"## {key}. {title}: {platform}, {total} requests\n")
    for i, fd in enumerate(flows):
        print(f"- {fd['label']}: {fd['count']:,} requests, queue {i}, bytes [{i * part:,}, {(i + 1) * part:,}) "
              f"of {capacity:,} (ssdsim); MQSim: flow {i} of the IO_Scenario, seed {fd['mqsim_seed']}")
    print()
    rel = lambda c: os.path.relpath(c, data_dir) if c.startswith(data_dir + "/") else c
    shown = " ".join("JOBS" if c == jobs else rel(c) for c in ssd_cmd)
    print(f"ssdsim: `{shown} --report R` (JOBS: {key}/jobs.yaml in the work folder, one job per flow: pattern, "
          f"read_fraction, block_size, count, range_start, range_bytes, seed, iodepth, queue)  ")
    mq_prec = (f"steady-state preconditioning at {occupancy}% occupancy" if occupancy else "no preconditioning")
    if args.mqsim_dies_as_chips:
        mq_prec += f"; {p['geometry.ways']} chips of 1 die per channel"
    print(f"MQSim: `MQSim -i ssdconfig.xml -w workload.xml` in {nf + 1} folders: both flows in one IO_Scenario, "
          f"then each flow alone ({mq_prec}{'; ' + sdir if args.keep else ''})\n", flush=True)

    runs = {"ssdsim": [], "MQSim": []}
    results = {"ssdsim": None, "MQSim": None}
    failed = {"ssdsim": None, "MQSim": None}
    notes = []

    def fail_text(m, rdir):
        if m["timed_out"]:
            return f"did not finish in {args.timeout:g} s"
        out = tail(os.path.join(rdir, "stdout.txt"), 200)
        err = re.findall(r"ERROR:\s*(.*)", out)
        sig = {-11: " (segmentation fault)", -6: " (abort)", -9: " (killed)"}.get(m["rc"], "")
        return f"exit code {m['rc']}{sig}" + (f": {err[0].strip()}" if err else "")

    def one_run(i, sim):
        rdir = os.path.join(sdir, f"{sim}-{i + 1}")
        if os.path.isdir(rdir):
            shutil.rmtree(rdir)
        os.makedirs(rdir)
        status = ""
        if sim == "ssdsim":
            m = run_measured(ssd_cmd + ["--report", os.path.join(rdir, "report.json")], rdir, env, args.timeout,
                             os.path.join(rdir, "stdout.txt"))
            res = None
            if m["timed_out"] or m["rc"] != 0:
                failed[sim] = fail_text(m, rdir)
                if not m["timed_out"]:
                    out = tail(os.path.join(rdir, "stdout.txt"), 5).strip().replace("\n", " ")
                    failed[sim] += f" ({out[-300:]})" if out else ""
            else:
                try:
                    res = ssdsim_flow_results(os.path.join(rdir, "report.json"))
                    for fd, fr in zip(flows, res["flows"]):
                        if fr["requests"] != fd["count"]:
                            raise ValueError(f"{fr['requests']} requests instead of {fd['count']}")
                    if len(res["flows"]) != nf:
                        raise ValueError(f"{len(res['flows'])} flows in the report")
                except (OSError, KeyError, TypeError, ValueError) as e:
                    failed[sim] = f"no results ({e})"
                    res = None
        else:
            # the shared run, then each flow alone: one process each, their costs summed
            m = {"cpu_s": 0.0, "wall_s": 0.0, "maxrss_mib": 0.0}
            res = {"shared": None, "alone": [None] * nf}
            for name in mq_sets:
                d = os.path.join(rdir, name)
                os.makedirs(d)
                shutil.copy(os.path.join(sdir, name, "ssdconfig.xml"), d)
                shutil.copy(os.path.join(sdir, name, "workload.xml"), d)
                mm = run_measured([mqsim, "-i", "ssdconfig.xml", "-w", "workload.xml"], d, env, args.timeout,
                                  os.path.join(d, "stdout.txt"))
                m["cpu_s"] += mm["cpu_s"]
                m["wall_s"] += mm["wall_s"]
                m["maxrss_mib"] = max(m["maxrss_mib"], mm["maxrss_mib"])
                if mm["timed_out"] or mm["rc"] != 0:
                    failed[sim] = f"{name} run: {fail_text(mm, d)}"
                    res = None
                    break
                try:
                    r = mqsim_flow_results(d, planes, nf if name == "shared" else 1)
                    want = [fd["count"] for fd in flows] if name == "shared" else [flows[int(name[5:])]["count"]]
                    got = [fl["requests"] for fl in r["flows"]]
                    if got != want:
                        raise ValueError(f"{got} requests instead of {want}")
                except (OSError, KeyError, ValueError, ET.ParseError) as e:
                    failed[sim] = f"{name} run: no results ({e})"
                    res = None
                    break
                if name == "shared":
                    res["shared"] = r
                else:
                    res["alone"][int(name[5:])] = r["flows"][0]
            if res is not None:
                sh = res["shared"]
                fl_out = []
                for j in range(nf):
                    s_, a_ = sh["flows"][j], res["alone"][j]
                    fl_out.append(dict(s_, shared_us=s_["mean_us"], alone_us=a_["mean_us"],
                                       slowdown=s_["mean_us"] / a_["mean_us"] if a_["mean_us"] > 0 else None,
                                       shared_device_us=s_["device_us"], alone_device_us=a_["device_us"]))
                sds = [x["slowdown"] for x in fl_out if x["slowdown"]]
                host_pages = sum(x["writes"] * -(-fd["bytes"] // page_bytes) for x, fd in zip(fl_out, flows))
                res = {"flows": fl_out, "fairness": min(sds) / max(sds) if len(sds) == nf else None,
                       "waf": sh["programs"] / host_pages if host_pages and sh["programs"] else None,
                       "precondition_s": sh["precondition_s"]}
        if res is not None:
            m["result"] = res
            runs[sim].append(m)
            if results[sim] and any(abs(a["iops"] - b["iops"]) > 1e-6 * b["iops"]
                                    for a, b in zip(results[sim]["flows"], res["flows"])):
                status = "(simulated IOPS differs from run 1)"
            results[sim] = results[sim] or res
        else:
            status = failed[sim]
        print(f"  run {i + 1} {sim:6s}: {m['cpu_s']:8.1f} CPU s, {m['wall_s']:8.1f} wall s, "
              f"{m['maxrss_mib']:8.0f} MiB {status}", file=sys.stderr, flush=True)

    sub_page_writers = [j for j, fd in enumerate(flows) if fd["read"] < 1 and fd["bytes"] < page_bytes]
    mq_failures = []  # (what MQSim ran, how it failed) of the attempts the fallbacks replaced
    for i in range(args.runs):
        for sim in ("ssdsim", "MQSim"):
            if failed[sim]:
                continue
            one_run(i, sim)
            # MQSim crashing (not timing out) before any run of it finished: as in scenario e, its GC
            # can lose track of sub-page writes after its steady-state preconditioning, and the same
            # writes aligned to whole pages may run; with two flows its GC also fails with aligned
            # writes ("Inconsistency found when moving a page for GC/WL!", "Unlocking an LPA that has
            # not been locked!"), so at last MQSim runs without preconditioning: an empty drive, where
            # these requests cause no GC, as on ssdsim's filled drive (its over-provisioning holds them)
            while sim == "MQSim" and failed[sim] and not runs[sim] and "exit code" in failed[sim]:
                aligned = any("align_sectors" in flows[j] for j in sub_page_writers)
                if sub_page_writers and mq["occupancy"] is not None and not aligned:
                    mq_failures.append((f"{nbytes_list(flows)} as given, preconditioning at {mq['occupancy']}%",
                                        failed[sim]))
                    for j in sub_page_writers:
                        flows[j]["align_sectors"] = page_bytes // SECTOR
                    what = "the sub-page writes aligned to whole pages"
                elif mq["occupancy"] is not None:
                    mq_failures.append((f"preconditioning at {mq['occupancy']}%"
                                        + (", sub-page writes aligned to pages" if aligned else ""), failed[sim]))
                    for j in sub_page_writers:
                        flows[j].pop("align_sectors", None)
                    mq["occupancy"] = None
                    what = "no preconditioning"
                else:
                    break
                write_mqsim_inputs()
                failed[sim] = None
                print(f"  MQSim failed; again with {what}", file=sys.stderr, flush=True)
                one_run(i, sim)

    def med(sim, field):
        vals = [r[field] for r in runs[sim]]
        return statistics.median(vals) if vals else None

    rs, rm = results["ssdsim"], results["MQSim"]

    def cell(sim, v, digits=0):
        if failed[sim] and not runs[sim]:
            return failed[sim]
        return fmt(v, digits)

    def fv(res, j, field):
        return res["flows"][j][field] if res else None

    def counts(res, j):
        if not res:
            return None
        f_ = res["flows"][j]
        return f"{f_['requests']:,} ({f_['reads']:,} / {f_['writes']:,})"

    rows = []
    for j, fd in enumerate(flows):
        lab = fd["label"]
        rows += [
            (f"{lab}: requests (reads / writes)", cell("ssdsim", counts(rs, j)), cell("MQSim", counts(rm, j)), ""),
            (f"{lab}: IOPS, shared", cell("ssdsim", fv(rs, j, "iops")), cell("MQSim", fv(rm, j, "iops")),
             ratio(fv(rs, j, "iops"), fv(rm, j, "iops"))),
            (f"{lab}: mean latency us, shared", cell("ssdsim", fv(rs, j, "shared_us"), 1),
             cell("MQSim", fv(rm, j, "shared_us")), ratio(fv(rs, j, "shared_us"), fv(rm, j, "shared_us"))),
            (f"{lab}: mean latency us, alone", cell("ssdsim", fv(rs, j, "alone_us"), 1),
             cell("MQSim", fv(rm, j, "alone_us")), ratio(fv(rs, j, "alone_us"), fv(rm, j, "alone_us"))),
            (f"{lab}: slowdown (shared / alone)", cell("ssdsim", fv(rs, j, "slowdown"), 2),
             cell("MQSim", fv(rm, j, "slowdown"), 2), ratio(fv(rs, j, "slowdown"), fv(rm, j, "slowdown"))),
        ]
    rows += [
        ("fairness (min slowdown / max slowdown)", cell("ssdsim", rs and rs["fairness"], 3),
         cell("MQSim", rm and rm["fairness"], 3), ratio(rs and rs["fairness"], rm and rm["fairness"])),
        ("flash programs per host page, shared run (WAF)", cell("ssdsim", rs and rs["waf"], 2),
         cell("MQSim", rm and rm["waf"], 2), ratio(rs and rs["waf"], rm and rm["waf"])),
        (f"CPU seconds, shared + {nf} alone runs (median)", cell("ssdsim", med("ssdsim", "cpu_s"), 1),
         cell("MQSim", med("MQSim", "cpu_s"), 1), ratio(med("ssdsim", "cpu_s"), med("MQSim", "cpu_s"))),
        ("peak memory MiB (median)", cell("ssdsim", med("ssdsim", "maxrss_mib")),
         cell("MQSim", med("MQSim", "maxrss_mib")), ratio(med("ssdsim", "maxrss_mib"), med("MQSim", "maxrss_mib"))),
        ("preconditioning wall s, shared run (last run)", cell("ssdsim", rs and rs["precondition_s"], 1),
         cell("MQSim", rm and rm["precondition_s"]), ""),
    ]
    print("| | ssdsim | MQSim | ssdsim / MQSim |\n|---|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if rs and rm:
        ends = "; ".join(f"flow {j}: ssdsim {fmt(fv(rs, j, 't_last_us') and fv(rs, j, 't_last_us') / 1000, 1)} ms, "
                         f"MQSim {fmt(fv(rm, j, 't_last_us') / 1000, 1)} ms" for j in range(nf))
        notes.append(f"Last completion of each flow in the shared run ({ends}); after a flow's last request the "
                     f"other runs alone for the rest of its requests, in both simulators.")
    if mq_failures and runs["MQSim"]:
        final = ("no preconditioning (an empty drive)" if mq["occupancy"] is None
                 else f"preconditioning at {mq['occupancy']}%")
        if any("align_sectors" in fd for fd in flows):
            final += ", the sub-page writes aligned to whole pages (no read-modify-write in MQSim)"
        tried = "; ".join(f"with {w}: {e}" for w, e in mq_failures)
        notes.append(f"MQSim failed ({tried}); its figures here are for the same requests with {final}.")
    if rm:
        dev = "; ".join(f"flow {j}: {fmt(fv(rm, j, 'shared_device_us'))} shared, "
                        f"{fmt(fv(rm, j, 'alone_device_us'))} alone" for j in range(nf))
        notes.append(f"MQSim's latencies are each flow's End_to_End_Request_Delay from its result XML (whole "
                     f"microseconds; from the request's generation to its completion, so any wait for a free "
                     f"submission queue entry included; with these queue depths there is none); its "
                     f"Device_Response_Time (from submission) in us: {dev}. MQSim IOPS: a flow's requests / "
                     f"the time of its last completion in its response-time log (logging period "
                     f"{log_period_ns / 1000:g} us). Slowdown and fairness as ssdsim's --alone-runs computes them.")
    print_notes(notes, failed, runs, args.runs)


# ---------------------------------------------------------------------------------------------

def scenario_platform(args, ssdsim, env, data_dir, platform):
    """The platform file of a scenario and its effective parameters (MQSim's chips with
    --mqsim-dies-as-chips)."""
    pfile = os.path.join(data_dir, "platforms", platform + ".yaml")
    if not os.path.isfile(pfile):
        die(f"no platform file {pfile}")
    p = platform_params(ssdsim, pfile, env)
    if args.mqsim_dies_as_chips:
        p["geometry.ways"] = str(count(p, "geometry.ways") * count(p, "geometry.dies_per_way"))
        p["geometry.dies_per_way"] = "1"
    return pfile, p


def print_notes(notes, failed, runs, wanted_runs):
    """The notes under a scenario's table, with each simulator's failed runs."""
    for sim in ("ssdsim", "MQSim"):
        if failed[sim]:
            notes.append(f"{sim}: {failed[sim]} (in {len(runs[sim])} of {wanted_runs} runs it finished).")
    print()
    for note in notes:
        print(f"- {note}")
    print(flush=True)


def fmt(v, digits=0):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if digits == 0:
        return f"{v:,.0f}"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mqsim_dir", help="MQSim's build directory (holding the MQSim executable)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each simulator per scenario (default 3)")
    ap.add_argument("--quick", action="store_true", help="request counts divided by 100")
    ap.add_argument("--scenarios", default="a,b,c,d,e,f", help="comma-separated subset of a,b,c,d,e,f")
    ap.add_argument("--timeout", type=float, default=1800, help="per-run timeout in seconds (default 1800)")
    ap.add_argument("--keep", metavar="DIR", help="keep every run's inputs and outputs under DIR")
    ap.add_argument("--mqsim-dies-as-chips", action="store_true",
                    help="give MQSim ways x dies chips of one die each (MQSim runs one command per chip at a "
                         "time, so the dies of a chip never overlap there; this shows what that costs)")
    args = ap.parse_args()

    mq_dir = os.path.abspath(args.mqsim_dir)
    mqsim = None
    for name in ("MQSim", "mqsim", "MQSim.exe"):
        cand = os.path.join(mq_dir, name)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            mqsim = cand
            break
    if mqsim is None:
        die(f"no MQSim executable in {mq_dir} (expected {mq_dir}/MQSim: build MQSim with `make` there first)")
    ssdsim = os.path.abspath(os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim")))
    if not (os.path.isfile(ssdsim) and os.access(ssdsim, os.X_OK)):
        die(f"no ssdsim at {ssdsim} (build it, or set SSDSIM)")
    env = dict(os.environ)
    data_dir = env.setdefault("SSDSIM_DATA_DIR", ROOT)
    if args.runs < 1:
        die("--runs must be at least 1")
    wanted = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    known = {s[0] for s in SCENARIOS} | {TWO_FLOWS[0]}
    for s in wanted:
        if s not in known:
            die(f"unknown scenario {s!r} (known: {', '.join(sorted(known))})")

    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="vs_mqsim.")
    os.makedirs(work, exist_ok=True)
    print(f"ssdsim: {ssdsim}\nMQSim:  {mqsim}\nruns: {args.runs}{'  (quick: counts / 100)' if args.quick else ''}"
          f", timeout {args.timeout:g} s per run, work folder {work}\n")
    print("MQSim settings the platform does not give:\n")
    for c in MQSIM_CHOICES:
        print(f"- {c}")
    print()

    for (key, title, platform, pattern, read, nbytes, n, qd, precond, occupancy) in SCENARIOS:
        if key not in wanted:
            continue
        n_req = max(qd * 4, n // 100) if args.quick else n
        sc = {"pattern": pattern, "read": read, "bytes": nbytes, "count": n_req, "qd": qd}
        pfile, p = scenario_platform(args, ssdsim, env, data_dir, platform)
        quick_note = ""
        if args.quick and occupancy is not None and read == 1.0:
            # MQSim's preconditioning of the 512 GiB drive alone takes about 17 minutes and 9 GB; a
            # read of a page never written still reads flash in MQSim (a physical page is assigned on
            # the fly in the plane its static allocation gives), so the read figures barely change
            occupancy = None
            quick_note = " (--quick: MQSim's preconditioning skipped for this read scenario)"
        log_period_ns = max(1000, n_req * 2)
        sdir = os.path.join(work, key)
        os.makedirs(sdir, exist_ok=True)
        cfg = mqsim_ssdconfig(p, sc, log_period_ns, occupancy is not None)
        wl = mqsim_workload(p, sc, occupancy)
        with open(os.path.join(sdir, "ssdconfig.xml"), "w") as f:
            f.write(cfg)
        with open(os.path.join(sdir, "workload.xml"), "w") as f:
            f.write(wl)
        ssd_cmd = [ssdsim, "run", "-p", pfile, "--synthetic", pattern, "--read-fraction", str(read),
                   "--request-bytes", str(nbytes), "--count", str(n_req), "--qd", str(qd),
                   "--precondition", precond, "--no-vcd", "-q", "--progress", "never"]
        mq_prec = (f"steady-state preconditioning at {occupancy}% occupancy" if occupancy else "no preconditioning")
        if args.mqsim_dies_as_chips:
            mq_prec += f"; {p['geometry.ways']} chips of 1 die per channel"
        print(f"## {key}. {title}: {platform}, {n_req:,} requests{quick_note}\n")
        print(f"ssdsim: `{' '.join(os.path.relpath(c, data_dir) if c.startswith(data_dir + '/') else c for c in ssd_cmd)} --report R`  ")
        print(f"MQSim: `MQSim -i ssdconfig.xml -w workload.xml` in a folder holding the two files "
              f"({mq_prec}{'; ' + sdir if args.keep else ''})\n", flush=True)

        runs = {"ssdsim": [], "MQSim": []}
        results = {"ssdsim": None, "MQSim": None}
        failed = {"ssdsim": None, "MQSim": None}
        notes = []
        page_sectors = count(p, "geometry.page_bytes") // SECTOR
        fallback_ok = sc["pattern"] == "random" and sc["read"] == 0 and occupancy is not None \
            and nbytes // SECTOR < page_sectors
        def one_run(i, sim):
            rdir = os.path.join(sdir, f"{sim}-{i + 1}")
            if os.path.isdir(rdir):
                shutil.rmtree(rdir)
            os.makedirs(rdir)
            if sim == "ssdsim":
                cmd = ssd_cmd + ["--report", os.path.join(rdir, "report.json")]
            else:
                shutil.copy(os.path.join(sdir, "ssdconfig.xml"), rdir)
                shutil.copy(os.path.join(sdir, "workload.xml"), rdir)
                cmd = [mqsim, "-i", "ssdconfig.xml", "-w", "workload.xml"]
            m = run_measured(cmd, rdir, env, args.timeout, os.path.join(rdir, "stdout.txt"))
            status = ""
            if m["timed_out"]:
                failed[sim] = f"did not finish in {args.timeout:g} s"
                status = failed[sim]
            elif m["rc"] != 0:
                out = tail(os.path.join(rdir, "stdout.txt"), 200)
                err = re.findall(r"ERROR:\s*(.*)", out)
                sig = {-11: " (segmentation fault)", -6: " (abort)", -9: " (killed)"}.get(m["rc"], "")
                failed[sim] = f"exit code {m['rc']}{sig}" + (f": {err[0].strip()}" if err else "")
                status = failed[sim]
            else:
                try:
                    res = (ssdsim_results(os.path.join(rdir, "report.json")) if sim == "ssdsim"
                           else mqsim_results(rdir, count(p, "geometry.planes_per_die")))
                    if res["requests"] != sc["count"]:
                        raise ValueError(f"{res['requests']} requests instead of {sc['count']}")
                except (OSError, KeyError, ValueError, ET.ParseError) as e:
                    failed[sim] = f"no results ({e})"
                    status = failed[sim]
                else:
                    m["result"] = res
                    runs[sim].append(m)
                    if results[sim] and abs(results[sim]["iops"] - res["iops"]) > 1e-6 * res["iops"]:
                        status = "(simulated IOPS differs from run 1)"
                    results[sim] = results[sim] or res
            print(f"  run {i + 1} {sim:6s}: {m['cpu_s']:8.1f} CPU s, {m['wall_s']:8.1f} wall s, "
                  f"{m['maxrss_mib']:8.0f} MiB {status}", file=sys.stderr, flush=True)

        for i in range(args.runs):
            for sim in ("ssdsim", "MQSim"):
                if failed[sim]:
                    continue
                one_run(i, sim)
                if (sim == "MQSim" and failed[sim] and fallback_ok and not runs[sim]
                        and not failed[sim].startswith("did not finish") and "align_sectors" not in sc):
                    # MQSim's GC loses track of sub-page writes after its steady-state preconditioning
                    # ("Inconsistency found when moving a page for GC/WL!"; with other seeds other errors
                    # or a segfault). Aligned to whole pages (each write then rewrites the same sectors of
                    # its page: no read-modify-write) the same writes run.
                    notes.append(f"MQSim failed with {nbytes // 1024} KiB writes at {nbytes // 1024} KiB alignment "
                                 f"({failed[sim]}); its figures here are for the same writes aligned to whole "
                                 f"{page_sectors * SECTOR // 1024} KiB pages (no read-modify-write in MQSim).")
                    sc["align_sectors"] = page_sectors
                    with open(os.path.join(sdir, "workload.xml"), "w") as f:
                        f.write(mqsim_workload(p, sc, occupancy))
                    failed[sim] = None
                    print("  MQSim failed; again with the writes aligned to pages", file=sys.stderr, flush=True)
                    one_run(i, sim)

        def med(sim, field):
            vals = [r[field] for r in runs[sim]]
            return statistics.median(vals) if vals else None

        rps = {s: (results[s]["requests"] / med(s, "cpu_s") if runs[s] and med(s, "cpu_s") > 0 else None)
               for s in runs}
        mem = {s: med(s, "maxrss_mib") for s in runs}
        cpu = {s: med(s, "cpu_s") for s in runs}
        rs, rm = results["ssdsim"], results["MQSim"]

        def cell(sim, v, digits=0):
            if failed[sim] and not runs[sim]:
                return failed[sim]
            return fmt(v, digits)

        mq_waf = None
        if rm and sc["read"] == 0 and rm["programs"]:
            host_pages = rm["requests"] * -(-nbytes // count(p, "geometry.page_bytes"))
            mq_waf = rm["programs"] / host_pages
        rows = [
            ("requests per CPU-second (median)", cell("ssdsim", rps["ssdsim"]), cell("MQSim", rps["MQSim"]),
             ratio(rps["ssdsim"], rps["MQSim"])),
            ("CPU seconds, whole process (median)", cell("ssdsim", cpu["ssdsim"], 1), cell("MQSim", cpu["MQSim"], 1),
             ratio(cpu["ssdsim"], cpu["MQSim"])),
            ("peak memory MiB (median)", cell("ssdsim", mem["ssdsim"]), cell("MQSim", mem["MQSim"]),
             ratio(mem["ssdsim"], mem["MQSim"])),
            ("preconditioning wall s (last run)", cell("ssdsim", rs and rs["precondition_s"], 1),
             cell("MQSim", rm and rm["precondition_s"]), ""),
            ("simulated IOPS", cell("ssdsim", rs and rs["iops"]), cell("MQSim", rm and rm["iops"]),
             ratio(rs and rs["iops"], rm and rm["iops"])),
            ("mean latency us", cell("ssdsim", rs and rs["mean_us"], 1), cell("MQSim", rm and rm["mean_us"]),
             ratio(rs and rs["mean_us"], rm and rm["mean_us"])),
            ("p99 latency us", cell("ssdsim", rs and rs["p99_us"], 1), "not reported", ""),
        ]
        if sc["read"] == 0:
            rows.append(("flash programs per host page (WAF)", cell("ssdsim", rs and rs["waf"], 2),
                         cell("MQSim", mq_waf, 2), ratio(rs and rs["waf"], mq_waf)))
        print("| | ssdsim | MQSim | ssdsim / MQSim |\n|---|---:|---:|---:|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        if rm:
            notes.append(f"MQSim IOPS: requests / time of the last completion from its response-time log "
                         f"({rm['iops_source']}; last completion at {fmt(rm['t_last_us'])} us, logging period "
                         f"{log_period_ns / 1000:g} us); its XML figure (requests / the last event's time in whole "
                         f"seconds, truncated) is {fmt(rm['xml_iops'])}. Its mean latency is the XML's End_to_End_Request_Delay "
                         f"(whole microseconds).")
        print_notes(notes, failed, runs, args.runs)
    if TWO_FLOWS[0] in wanted:
        two_flow_scenario(args, ssdsim, mqsim, env, data_dir, work)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
