#!/usr/bin/python3
"""core.table_access_timing (issue 38): every design-space study of bench/sweeps run with the
firmware's table accesses contended (booked on the bus's and memory's calendars, the default)
and annotated (TLM-2.0 loosely timed, uncontended, booked nowhere), and how far each figure of
each point moves between the two.

Each study's spec is run twice by tools/sweep.py with `core.table_access_timing` added to its
fixed overrides (its relative trace and job-file paths made absolute; in firmware_cores_iss only
the annotated core's points, since the ISS core's accesses do not take this path). Per study the
table gives the points' CPU seconds either way and, over every numeric figure of every point
(throughput, IOPS, latency mean and percentiles per operation, WAF, busy shares and the study's
own columns; not wall or CPU seconds), the median and the largest relative change (and the
largest in IOPS and in mean latency), where it is, and how many figures move by 1% or more
(busy shares included: an annotated access is not in the bus's and memory's busy time, so the
SRAM's, which only the firmware uses, falls to 0): the issue's rule is that the cheaper formulation may become the
default only if no figure moves by 1%.

Writes table_access_timing.md and .csv (IOPS, mean and p99 latency of every point both ways) into
--out (default: bench/);
the sweeps' points go to results/table_access_timing/STUDY/MODE (resumed if interrupted: run
again after a complete run, it only rewrites the tables).
"""
import argparse
import csv
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDIES = ["channels_ways", "firmware_cores", "firmware_cores_iss", "ftl_cache", "multi_tenant"]
MODES = ["contended", "annotated"]
NOT_FIGURES = {"point", "status", "exit", "error", "wall_s", "cpu_s", "max_rss_mib", "host", "platform", "ftl",
               "workload", "workload_name", "bottleneck", "bottleneck_class"}
PATH_OPTIONS = ("trace", "jobs")
HEADLINE = ("iops", "latency_mean_us", "latency_p99_us")  # the CSV's figures, for every point


def derived_spec(study, mode, folder):
    """The study's spec with the timing mode set, written into `folder`; its path."""
    source = os.path.join(ROOT, "bench", "sweeps", study, "spec.yaml")
    with open(source) as f:
        spec = yaml.safe_load(f)
    spec.setdefault("set", {})["core.table_access_timing"] = mode
    if "core.model" in spec.get("grid", {}):
        spec["grid"]["core.model"] = ["annotated"]
    base = os.path.dirname(source)
    for options in [spec.get("workload", {}), *spec.get("workloads", {}).values()]:
        for key in PATH_OPTIONS:
            if key in options and not os.path.isabs(options[key]):
                options[key] = os.path.abspath(os.path.join(base, options[key]))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "spec.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
    return path


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def point_key(row, swept):
    return tuple(row[k] for k in swept)


def compare(study, rows):
    """rows[mode]: results.csv rows. The study's line of the table, and the figures that moved (with
    every point's HEADLINE figures, moved or not)."""
    columns = list(rows["contended"][0])
    swept = columns[1:columns.index("status")]  # results.csv: point, the swept values, status, ...
    by_point = {m: {point_key(r, swept): r for r in rows[m]} for m in MODES}
    moved, largest, counted, failed, changes = [], (0.0, "", ""), 0, 0, []
    for key, a in by_point["contended"].items():
        b = by_point["annotated"].get(key)
        if b is None or a["status"] != "ok" or b["status"] != "ok":
            failed += 1
            continue
        for column, text in a.items():
            if column in NOT_FIGURES or column in swept or any(w in column for w in ("wall", "cpu_s", "rss")):
                continue  # the simulator's own costs, not the drive's figures
            x, y = number(text), number(b.get(column))
            if x is None or y is None:
                continue
            counted += 1
            change = (y - x) / abs(x) if x else (0.0 if y == 0 else float("inf"))
            changes.append(abs(change))
            if abs(change) > 0 or column in HEADLINE:
                moved.append({"study": study, "point": a["point"], "figure": column, "contended": x, "annotated": y,
                              "change": change})
            if abs(change) > abs(largest[0]):
                largest = (change, column, a["point"])
    cpu = {m: sum(number(r["cpu_s"]) or 0 for r in rows[m]) for m in MODES}
    over = sum(1 for m in moved if abs(m["change"]) >= 0.01)
    changes.sort()
    median = changes[len(changes) // 2] if changes else 0.0
    of = lambda figure: max((m["change"] for m in moved if m["figure"] == figure), key=abs, default=0.0)
    return {"study": study, "points": len(rows["contended"]), "failed": failed, "cpu": cpu, "figures": counted,
            "over_1pct": over, "median": median, "iops": of("iops"), "latency": of("latency_mean_us"),
            "largest": largest}, moved


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--studies", default=",".join(STUDIES), help="comma-separated (default: every study)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default=os.path.join(ROOT, "bench"))
    p.add_argument("--ssdsim", default=os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim")))
    a = p.parse_args()
    lines, all_moved = [], []
    for study in a.studies.split(","):
        if study not in STUDIES:
            sys.exit(f"--studies: unknown study '{study}' (known: {', '.join(STUDIES)})")
        rows = {}
        for mode in MODES:
            folder = os.path.join(ROOT, "results", "table_access_timing", study, mode)
            spec = derived_spec(study, mode, folder)
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sweep.py"), spec, "--out", folder,
                            "--workers", str(a.workers), "--ssdsim", a.ssdsim, "--progress", "never"], check=True)
            with open(os.path.join(folder, "results.csv")) as f:
                rows[mode] = list(csv.DictReader(f))
        line, moved = compare(study, rows)
        lines.append(line)
        all_moved += moved
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "table_access_timing.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["study", "point", "figure", "contended", "annotated", "change"])
        w.writeheader()
        w.writerows(sorted((m for m in all_moved if m["figure"] in HEADLINE),
                           key=lambda m: (m["study"], m["figure"], -abs(m["change"]))))
    with open(os.path.join(a.out, "table_access_timing.md"), "w") as f:
        f.write("# Table accesses contended or annotated (`bench/table_access_timing.py`)\n\n")
        f.write("| study | points | CPU s contended | CPU s annotated | ratio | figures compared | moved >= 1% | "
                "median change | largest IOPS change | largest mean-latency change | largest change | where |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
        for ln in lines:
            change, column, point = ln["largest"]
            ratio = ln["cpu"]["annotated"] / ln["cpu"]["contended"] if ln["cpu"]["contended"] else float("nan")
            failed = f" ({ln['failed']} failed)" if ln["failed"] else ""
            f.write(f"| {ln['study']} | {ln['points']}{failed} | "
                    f"{ln['cpu']['contended']:.0f} | {ln['cpu']['annotated']:.0f} | {ratio:.2f} | {ln['figures']} | "
                    f"{ln['over_1pct']} | {ln['median']:.2%} | {ln['iops']:+.2%} | {ln['latency']:+.2%} | "
                    f"{change:+.2%} | {column} at {point} |\n")
    print(open(os.path.join(a.out, "table_access_timing.md")).read())


if __name__ == "__main__":
    main()
