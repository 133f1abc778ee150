#!/usr/bin/python3
"""The workload after a power cut: what each FTL's mount costs, and what the cut costs the rest of the run (issue 35).

Each run replays a real trace (MSR Cambridge excerpts, folded onto the drive) on
platforms/default.yaml (128 GiB MLC, filled first, with its erase_after_copies and word-line
safety), cuts the power half way through its requests, boots
(the full OOB scan: no map checkpoints), mounts the recovered flash with a new firmware
(--after-recovery continue) and replays the rest. Beside it, the same trace without a cut.
With the write buffer (platforms/default.yaml's) and without it (firmware.write_buffer=off, so
the FTL's own state is all there is at the cut).

Per run: the boot's and the mount's time, the mount's own work (a hybrid's merges of what its
lost log tables held, DFTL/CAST's translation pages written again, SUPERBLOCK's blocks with no
valid page erased), the requests given up at the cut, and the WAF of the whole run (before and
after the cut together) against the uncut run's: the difference is what the cut cost in writes
(the mount's merges, blocks closed half written, pages written again from a dump). Writes
after_recovery.csv/.md into --out (default bench/).
"""
import json
import os

from bench_common import ROOT, TRACES_DIR, run_jobs, run_ssdsim, study_arguments, write_tables

FTLS = ["page_mapping", "dftl", "cast", "bast", "fast", "faster", "last", "adapt", "waftl", "mnk", "mcsplit",
        "superblock", "subgroup"]
TRACES = {"hm_0": "msr/hm_0.csv", "rsrch_1": "msr/rsrch_1.csv"}
BUFFERS = ["on", "off"]


def trace_requests(path):
    with open(path) as f:
        return sum(1 for line in f if line.strip())


def args_for(a, trace, ftl, buffer):
    out = ["-p", os.path.join(ROOT, "platforms", "default.yaml"), "--ftl", ftl, "--trace",
           os.path.join(a.traces, TRACES[trace]), "--fold"]
    if buffer == "off":
        out += ["--set", "firmware.write_buffer=off"]
    return out


def waf(ftl_metrics, after=None, less=0):
    host = ftl_metrics["host_pages_written"] + (after["host_pages_written"] if after else 0)
    flash = ftl_metrics["flash_pages_programmed"] + (after["flash_pages_programmed"] if after else 0) - less
    return round(flash / host, 3) if host else None


def run(a, args, report):
    if a.reuse and os.path.exists(report):
        with open(report) as f:
            return json.load(f)
    return run_ssdsim(args, report)


def one(a, trace, ftl, buffer):
    name = f"{trace}-{ftl}-{buffer}"
    base = run(a, args_for(a, trace, ftl, buffer), os.path.join(a.work, name + "-whole.json"))
    cut_after = trace_requests(os.path.join(a.traces, TRACES[trace])) // 2
    r = run(a, args_for(a, trace, ftl, buffer) + ["--power-cut-after", str(cut_after), "--after-recovery", "continue"],
            os.path.join(a.work, name + ".json"))
    p = r["power_cut"]
    after = p["after_recovery"]
    c = after["ftl_counters"]
    work = []
    if c.get("mount_merges"):
        work.append(f"{c['mount_merges']} log blocks merged")
    if c.get("mount_translation_writes"):
        work.append(f"{c['mount_translation_writes']} translation pages")
    if after["dump_pages_restored"]:
        work.append(f"{after['dump_pages_restored']} dump pages")
    return {"trace": trace, "FTL": ftl, "write buffer": buffer, "cut after": cut_after,
            "given up": after["requests_given_up"], "after": after["requests_completed"],
            "boot s": round(p["boot"]["recovery_s"], 2), "mount ms": round(after["mount_s"] * 1e3, 2),
            "mount work": "; ".join(work) or "-", "mount programs": after["mount_pages_programmed"],
            "mount erases": after["mount_erases"],
            "WAF uncut": waf(base["ftl_metrics"]), "WAF cut": waf(r["ftl_metrics"], after),
            "WAF cut, mount aside": waf(r["ftl_metrics"], after, after["mount_pages_programmed"]),
            "reads checked": after["pages_checked"], "mismatches": after["mismatches"],
            "mapping": after["mapping_check"]}


def main():
    def options(p):
        p.add_argument("--traces", default=TRACES_DIR, help="folder of the shared traces (msr/...)")
        p.add_argument("--reuse", action="store_true", help="take the reports results/after_recovery holds already")
    a = study_arguments(__doc__, FTLS, "after_recovery", options)
    rows = run_jobs(a, one, [(t, f, b) for t in TRACES for b in BUFFERS for f in a.ftls])
    notes = ["", "Cut half way through the trace's requests on platforms/default.yaml, then the boot's full OOB "
             "scan, the mount and the rest of the trace (`ssdsim run ... --power-cut-after N --after-recovery "
             "continue`). `mount work`: the log blocks a hybrid's lost tables held, merged (mount_merges: "
             "each a switch, partial or full merge or a dead block's erase), translation pages DFTL/CAST "
             "wrote again, a capacitors' dump read back; `mount programs` and `mount erases`: the new FTL's "
             "by the mount's end. `WAF cut`: flash pages over the pages the FTL was given, before and after "
             "the cut together, the mount's included; `mount aside`: without the mount's programs; `WAF "
             "uncut`: the same trace without a cut."]
    write_tables(a.out, "after_recovery", list(rows[0].keys()), rows, notes)


if __name__ == "__main__":
    main()
