#!/usr/bin/python3
"""Per request, at each clock: the ISS core's instructions, issue cycles and stall cycles (with the
stall time in us), beside the annotated core's charged cycles and its table wait (us), from the
points' reports under points/ (rerun the sweep to make them). Prints the README's Markdown table.

Usage: bench/sweeps/firmware_cores_iss/per_request.py [STUDY_DIR]
"""
import glob
import json
import os
import sys

WORKLOADS = [("rand-read-4k", "read"), ("rand-write-4k", "write"), ("seq-read-128k", "128 KiB read")]


def report(study, model, mhz, workload):
    found = glob.glob(os.path.join(study, "points", f"model={model},clock_mhz={mhz},workload_name={workload}-*"))
    if not found:
        sys.exit(f"per_request: no point for {model} at {mhz} MHz, {workload} under {study}/points (rerun the sweep)")
    with open(os.path.join(found[0], "report.json")) as f:
        return json.load(f)


def requests(r):
    return r["host"]["reads"] + r["host"]["writes"]


def main():
    study = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    clocks = sorted({int(p.split("clock_mhz=")[1].split(",")[0])
                     for p in glob.glob(os.path.join(study, "points", "model=iss,*"))})
    print("| | clock MHz | " + " | ".join(str(c) for c in clocks) + " |")
    print("|---|---|" + "---:|" * len(clocks))
    for workload, label in WORKLOADS:
        rows = {"ISS instructions": [], "ISS issue cycles": [], "ISS stall cycles (us)": [],
                "annotated cycles + table wait (us)": []}
        for mhz in clocks:
            iss = report(study, "iss", mhz, workload)
            n, i = requests(iss), iss["firmware_iss"]
            stall = sum(i["stall_cycles"].values())
            rows["ISS instructions"].append(f"{i['instructions'] / n:,.0f}")
            rows["ISS issue cycles"].append(f"{i['issue_cycles'] / n:,.0f}")
            rows["ISS stall cycles (us)"].append(f"{stall / n:,.0f} ({stall / n / mhz:.3g})")
            ann = report(study, "annotated", mhz, workload)
            core, m = ann["hardware"]["cores"]["per_core"][0], requests(ann)
            rows["annotated cycles + table wait (us)"].append(f"{core['cycles'] / m:,.0f} + {core['memory_wait_us'] / m:.2f}")
        for k, (name, cells) in enumerate(rows.items()):
            print(f"| {label if k == 0 else ''} | {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
