#!/usr/bin/python3
"""What each FTL needs of the controller: code and data of the firmware cross-built for the
Cortex-R5F (preset firmware-r5), and the table memory it places for a given drive.

Code and static data come from `arm-none-eabi-size` on the objects of the cross build, grouped by
what each FTL links: the runtime every FTL shares (op scheduler, host-command handling, write
buffer, HAL glue, block spaces, valid-page maps, options), its family's shared code (the demand
FTLs' cache and directory, the hybrids' merge engine) and its own source. The FTLs' direct
layouts of preconditioned states (`*_preload.cpp`, `fw/precondition/`) are a simulation shortcut,
not firmware a drive would carry: they are counted apart. The tables come from a one-request run
of `ssdsim` on the platform (report section `firmware_tables`): each table in the memory it was
placed in, SRAM where asked and it fits, else DRAM.

Usage: tools/fw_footprint.py [-p platforms/default.yaml] [--build build-firmware-r5] [--set K=V ...]
Prints a Markdown table (KiB); --json for the figures.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))

# Sources (relative to fw/) beyond the shared runtime, per FTL; the rest of fw/ is the runtime.
HYBRID = ["ftl/hybrid/hybrid_ftl.cpp", "ftl/hybrid/hybrid_params.cpp"]
DEMAND = ["ftl/demand/demand_ftl.cpp", "ftl/demand/demand_params.cpp", "ftl/demand/mapping_cache.cpp",
          "ftl/demand/translation_directory.cpp", "ftl/demand/data_placement.cpp"]
OWN = {
    "page_mapping": ["ftl/page_mapping/page_mapping_ftl.cpp"],
    "dftl": DEMAND, "cast": DEMAND,
    "bast": HYBRID + ["ftl/hybrid/bast.cpp"],
    "fast": HYBRID + ["ftl/hybrid/fast.cpp"], "faster": HYBRID + ["ftl/hybrid/fast.cpp"],
    "last": HYBRID + ["ftl/hybrid/last.cpp"],
    "adapt": HYBRID + ["ftl/hybrid/adapt.cpp"],
    "waftl": HYBRID + ["ftl/hybrid/waftl.cpp"],
    "mnk": HYBRID + ["ftl/hybrid/mnk.cpp"], "mcsplit": HYBRID + ["ftl/hybrid/mnk.cpp"],
    "subgroup": ["ftl/hybrid/hybrid_params.cpp", "ftl/hybrid/superblock.cpp"],
    "superblock": ["ftl/hybrid/hybrid_params.cpp", "ftl/hybrid/superblock.cpp"],
}


def object_sizes(build):
    """{source relative to fw/: (text, data, bss)} from the cross build's objects."""
    objdir = os.path.join(build, "fw", "CMakeFiles", "ssd_fw.dir")
    objects = sorted(glob.glob(os.path.join(objdir, "**", "*.obj"), recursive=True))
    if not objects:
        sys.exit(f"no objects under {objdir}: build the firmware first "
                 "(cmake --preset firmware-r5 && cmake --build --preset firmware-r5)")
    out = subprocess.run(["arm-none-eabi-size", *objects], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines()[1:]:
        text, data, bss, _, _, path = line.split(None, 5)
        source = os.path.relpath(path, objdir)[:-len(".obj")]
        sizes[source] = (int(text), int(data), int(bss))
    return sizes


def is_preload(source):
    return source.startswith("precondition/") or source.endswith("_preload.cpp")


def tables(platform, ftl, overrides):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        cmd = [SSDSIM, "run", "-p", platform, "--ftl", ftl, "--synthetic", "random", "--count", "1",
               "--precondition", "none", "--no-vcd", "--no-verify", "-q", "--report", report]
        for o in overrides:
            cmd += ["--set", o]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        with open(report) as f:
            return json.load(f)["firmware_tables"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-p", "--platform", default=os.path.join(ROOT, "platforms", "default.yaml"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build-firmware-r5"))
    ap.add_argument("--set", action="append", default=[], help="platform override KEY=VALUE")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    sizes = object_sizes(a.build)
    family_sources = {s for sources in OWN.values() for s in sources}
    runtime = [s for s in sizes if s not in family_sources and not is_preload(s)]
    preload = [s for s in sizes if is_preload(s)]

    def total(sources):
        return [sum(sizes[s][k] for s in sources) for k in range(3)]

    rows = []
    for ftl, own in OWN.items():
        missing = [s for s in own if s not in sizes]
        if missing:
            sys.exit(f"{ftl}: no object for {', '.join(missing)} in {a.build}")
        code = total(runtime + own)
        t = tables(a.platform, ftl, a.set)
        ftl_tables = [x for x in t["tables"] if x["name"] not in ("data_buffer", "write_buffer")]
        rows.append({"ftl": ftl, "text": code[0], "data": code[1], "bss": code[2], "own_text": total(own)[0],
                     "sram_tables": sum(x["bytes"] for x in ftl_tables if x["memory"] == "sram"),
                     "dram_tables": sum(x["bytes"] for x in ftl_tables if x["memory"] == "dram"),
                     "tables": {x["name"]: x["bytes"] for x in ftl_tables}})
    if a.json:
        print(json.dumps({"platform": a.platform, "overrides": a.set, "runtime_text": total(runtime)[0],
                          "preload_text": total(preload)[0], "ftls": rows}, indent=1))
        return
    kib = lambda b: f"{b / 1024:,.1f}"
    print(f"Platform {os.path.relpath(a.platform, ROOT)}{' ' + ' '.join(a.set) if a.set else ''}; "
          f"Cortex-R5F build in {os.path.relpath(a.build, ROOT)}. KiB.\n")
    print("| FTL | code (text) | of it the FTL's own | data | bss | tables in SRAM | tables in DRAM | largest table |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        largest = max(r["tables"].items(), key=lambda kv: kv[1]) if r["tables"] else ("-", 0)
        print(f"| {r['ftl']} | {kib(r['text'])} | {kib(r['own_text'])} | {kib(r['data'])} | {kib(r['bss'])} | "
              f"{kib(r['sram_tables'])} | {kib(r['dram_tables'])} | {largest[0]} ({kib(largest[1])}) |")
    print(f"\nShared runtime: {kib(total(runtime)[0])} KiB of code; the preconditioning shortcuts the image "
          f"also carries (not counted above): {kib(total(preload)[0])} KiB. Host data and write buffers "
          "(DRAM) are left out: they are the controller's, whichever FTL runs.")


if __name__ == "__main__":
    main()
