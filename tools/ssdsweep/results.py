"""results.csv: one row per point, its swept values first, then the figures from its report.

Busy shares are of the simulated time (report section `utilization`). The bottleneck: resources
of several kinds that limit each other (utilization.limited_by: none saturated, each >= 80% busy:
"channel 0 + channel 0 die 2"), else the busiest resource when the drive is bound (>= 90% busy), else "host"
(the queue depth or the arrival times set the pace). bottleneck_class names their kinds: dies,
channels, cores, system bus, dram, sram, host link, "dies+channels", host.
"""
import csv
import re

# Column -> path in the report (keys separated by '/').
REPORT_COLUMNS = [
    ("platform", "platform/name"),
    ("ftl", "ftl/name"),
    ("workload", "workload/description"),
    ("queue_depth", "workload/queue_depth"),
    ("requests", "host/requests"),
    ("throughput_mb_per_s", "host/mb_per_s"),
    ("iops", "host/iops"),
    ("read_iops", "host/read_iops"),
    ("write_iops", "host/write_iops"),
] + [
    (f"{prefix}latency_{stat}_us", f"host/{prefix}latency_us/{stat}")
    for prefix in ("", "read_", "write_") for stat in ("mean", "p50", "p99", "p99_9")
] + [
    ("waf", "ftl_metrics/waf"),
    ("drive_waf", "ftl_metrics/drive_waf"),
    ("erases", "ftl_metrics/erases"),
    ("gc_copies", "ftl_metrics/gc_copies"),
    ("merge_copies", "ftl_metrics/merge_copies"),
    ("busy_dies_mean", "utilization/dies/mean"),
    ("busy_dies_max", "utilization/dies/max"),
    ("busy_channels_mean", "utilization/channels/mean"),
    ("busy_channels_max", "utilization/channels/max"),
    ("busy_system_bus", "utilization/resources/system bus"),
    ("busy_dram", "utilization/resources/dram"),
    ("busy_sram", "utilization/resources/sram"),
    ("busy_host_link_to_device", "utilization/resources/host link (to device)"),
    ("busy_host_link_to_host", "utilization/resources/host link (to host)"),
    ("busy_cores", "utilization/resources/cores"),
    ("busiest_resource", "utilization/busiest/resource"),
    ("busiest_busy", "utilization/busiest/busy_fraction"),
    ("bound", "utilization/bound"),
    ("energy_j", "energy/total_j"),
    ("energy_per_request_j", "energy/per_request_j"),
    ("energy_per_gb_j", "energy/per_gb_j"),
    ("average_power_w", "energy/average_w"),
    ("peak_power_w", "energy/peak_w"),
    ("energy_flash_j", "energy/flash_j"),
    ("simulated_s", "host/simulated_seconds"),
    ("simulation_wall_s", "simulation/wall_seconds"),
    ("mismatches", "integrity/mismatches"),
]
RUN_COLUMNS = ["status", "exit", "error", "wall_s", "cpu_s", "max_rss_mib", "host"]
DERIVED_COLUMNS = ["bottleneck", "bottleneck_class"]


def lookup(report, path):
    """The value at a report path such as ftl_metrics/erases; a number indexes a list
    (host/flows/0/slowdown); "" when the path is not there."""
    node = report
    for part in path.split("/"):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return ""
    return node


def resource_class(name):
    if re.fullmatch(r"channel \d+ die \d+", name):
        return "dies"
    if re.fullmatch(r"channel \d+", name):
        return "channels"
    if re.fullmatch(r"cores?( \d+)?", name):
        return "cores"
    if name.startswith("host link"):
        return "host link"
    return name


def header(swept_keys, extra=()):
    """A swept key that is also a report column (ftl) keeps its place among the swept ones."""
    report = [c for c, _ in REPORT_COLUMNS if c not in swept_keys]
    return ["point", *swept_keys, *RUN_COLUMNS, *report, *DERIVED_COLUMNS, *extra, "report"]


def row(ident, values, outcome, report, report_path, extra=None):
    """outcome: the runner's dict (without report text); report: parsed JSON or None; extra: the
    spec's own columns, name -> report path."""
    r = {"point": ident, **values}
    ok = outcome.get("exit") == 0 and report is not None
    r.update({"status": "ok" if ok else "failed", "exit": outcome.get("exit"),
              "error": outcome.get("error", ""), "wall_s": outcome.get("wall_s", ""),
              "cpu_s": outcome.get("cpu_s", ""), "max_rss_mib": outcome.get("max_rss_mib", ""),
              "host": outcome.get("host", "")})
    if ok:
        for column, path in REPORT_COLUMNS:
            if column not in values:
                r[column] = lookup(report, path)
        u = report["utilization"]
        bound, busiest, limiting = bool(u["bound"]), u["busiest"]["resource"], u.get("limited_by", [])
        if limiting:
            r["bottleneck"] = " + ".join(limiting)
            r["bottleneck_class"] = "+".join(resource_class(name) for name in limiting)
        else:
            r["bottleneck"] = busiest if bound else "host"
            r["bottleneck_class"] = resource_class(busiest) if bound else "host"
        for column, path in (extra or {}).items():
            r[column] = lookup(report, path)
        r["report"] = report_path
    return r


def write(path, swept_keys, rows, extra=()):
    columns = header(swept_keys, extra)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: format_cell(r.get(k, "")) for k in columns})


def format_cell(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    return v
