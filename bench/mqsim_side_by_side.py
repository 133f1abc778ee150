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
    "run deadlocks), "
    "Preemptible_GC_Enabled false, Use_Copyback_for_GC false",
    "Static_Wearleveling_Enabled false (ssdsim has none); Dynamic_Wearleveling_Enabled true (MQSim's default)",
    "CMD_Suspension_Support from nand.program_suspend / nand.erase_suspend (NONE here; MQSim's default ERASE)",
    "Transaction_Scheduling_Policy OUT_OF_ORDER (MQSim's built-in default; one flow), "
    "Plane_Allocation_Scheme CWDP (MQSim's default; its allocation is static, by logical page)",
    "IO_Queue_Depth = host.queue_depth + 1 (MQSim's submission ring holds one entry fewer than its size), "
    "Queue_Fetch_Size = min(512, that)",
    "PCIe_Lane_Bandwidth = host.lane_gtps x host.encoding / 8 GB/s, PCIe_Lane_Count = host.lanes",
    "Flash_Technology MLC with LSB = CSB = MSB latencies when the platform gives one tR/tPROG",
    "workload: QUEUE_DEPTH generator, Working_Set_Percentage 100, addresses aligned to the request size, "
    "FIXED size, Stop_Time 0 and Total_Requests_To_Generate = the count; Initial_Occupancy_Percentage 100 "
    "where the drive is filled (MQSim's random-uniform preconditioning caps it at 90% of the logical pages), "
    "99 for the sequential read (at 100 MQSim's streaming preconditioning never ends)",
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
    # 16 GiB drive with ssdsim's 8, then a segfault), so the threshold is at least MQSim's default 5%
    gc_thr_blocks = max(gc_thr_blocks, int(0.05 * blocks))
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


def mqsim_workload(p, sc, occupancy):
    channels, ways = count(p, "geometry.channels"), count(p, "geometry.ways")
    dies, planes = count(p, "geometry.dies_per_way"), count(p, "geometry.planes_per_die")
    ids = lambda n: ",".join(str(i) for i in range(n))
    sectors = sc["bytes"] // SECTOR
    caching = "TURNED_OFF" if p["firmware.write_buffer"] == "off" else "WRITE_CACHE"
    flow = [
        ("Priority_Class", "HIGH"),
        ("Device_Level_Data_Caching_Mode", caching),
        ("Channel_IDs", ids(channels)),
        ("Chip_IDs", ids(ways)),
        ("Die_IDs", ids(dies)),
        ("Plane_IDs", ids(planes)),
        ("Initial_Occupancy_Percentage", occupancy if occupancy else 1),
        ("Working_Set_Percentage", 100),
        ("Synthetic_Generator_Type", "QUEUE_DEPTH"),
        ("Read_Percentage", int(round(sc["read"] * 100))),
        ("Address_Distribution", "RANDOM_UNIFORM" if sc["pattern"] == "random" else "STREAMING"),
        ("Percentage_of_Hot_Region", 0),
        ("Generated_Aligned_Addresses", "true"),
        ("Address_Alignment_Unit", sc.get("align_sectors", sectors)),
        ("Request_Size_Distribution", "FIXED"),
        ("Average_Request_Size", sectors),
        ("Variance_Request_Size", 0),
        ("Seed", 798),
        ("Average_No_of_Reqs_in_Queue", sc["qd"]),
        ("Bandwidth", 0),
        ("Stop_Time", 0),
        ("Total_Requests_To_Generate", sc["count"]),
    ]
    return ('<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n\t<IO_Scenario>\n'
            + xml_block("IO_Flow_Parameter_Set_Synthetic", flow, 2) + "\n\t</IO_Scenario>\n</MQSim_IO_Scenarios>\n")


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
    # Flash programs, for the write amplification (programs per host page written)
    ftl = next((el for el in root.iter() if el.tag.endswith(".FTL")), None)
    programs = 0
    if ftl is not None:
        f = {k: int(float(v)) for k, v in ftl.attrib.items() if re.match(r"^-?[0-9.]+$", v)}
        # a multi-plane command programs one page on each of `planes` planes
        programs = (f.get("Issued_Flash_Program_CMD", 0) + f.get("Issued_Flash_Interleaved_Program_CMD", 0)
                    + f.get("Issued_Flash_Copyback_Program_CMD", 0)
                    + planes * (f.get("Issued_Flash_Multiplane_Program_CMD", 0)
                                + f.get("Issued_Flash_Interleaved_Multiplane_Program_CMD", 0)
                                + f.get("Issued_Flash_Multiplane_Copyback_Program_CMD", 0)))
    log = os.path.join(run_dir, "workload.IO_Flow.No_0.log")
    t_last_us = None
    with open(log) as f:
        for line in f:
            fields = line.split("\t")
            if fields and re.match(r"^\d+(\.\d+)?$", fields[0].strip()):
                t_last_us = float(fields[0])
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


# ---------------------------------------------------------------------------------------------

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
    ap.add_argument("--scenarios", default="a,b,c,d,e", help="comma-separated subset of a,b,c,d,e")
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
    known = {s[0] for s in SCENARIOS}
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
        pfile = os.path.join(data_dir, "platforms", platform + ".yaml")
        if not os.path.isfile(pfile):
            die(f"no platform file {pfile}")
        p = platform_params(ssdsim, pfile, env)
        if args.mqsim_dies_as_chips:
            p["geometry.ways"] = str(count(p, "geometry.ways") * count(p, "geometry.dies_per_way"))
            p["geometry.dies_per_way"] = "1"
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
        for s in ("ssdsim", "MQSim"):
            if failed[s]:
                notes.append(f"{s}: {failed[s]} (in {len(runs[s])} of {args.runs} runs it finished).")
        print()
        for n_ in notes:
            print(f"- {n_}")
        print(flush=True)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
