#!/usr/bin/python3
"""Power-cut campaign (issue 35): every FTL cut at many points drawn with a seed, with and without
capacitors, and what each cut did to the data.

The drive is platforms/tiny.yaml made MLC (two pages a word line: tR 25/40 us, tPROG 200/600 us)
with the shipped MLC platform's protection (firmware.word_line_safety, erase_after_copies), filled
before the run, so GC and merges run from the first writes (SubGroup at ftl.overprovisioning 0.25:
at 0.2 its superblocks' word-line padding spends tiny's pool before the workload ends); the workload is
workloads/database_fsync.yaml (a FUA write-ahead log beside flushed random page writes and reads),
so the cuts fall during host programs, GC copies, merges, erases, DFTL's and CAST's translation
write-backs and flushes. Per FTL, one run without a cut gives the workload's requests and
simulated time; half the cuts come after a number of completed requests drawn uniformly over
them, half at a moment drawn uniformly over the time (--seed). With --plp, each cut is made again
with capacitors (firmware.plp = capacitors, --hold-up-us, with a page_lru write buffer that they
make non-volatile, dumped into the firmware's dump area in the hold-up: firmware.plp_destage).

At each cut the report's power_cut section says what the flash lost (programs torn, paired lower
pages, erases cut), what the drive had acknowledged and not yet made durable, and how the mapping
rebuilt from the OOB (each logical page's highest sequence number) reads back: a durable page lost,
garbage, a page recovered older than its durable content, or two copies of one version with
different data is a failure (the run exits non-zero). Then the drive boots and its recovery
firmware rebuilds the mapping through the timed model (the report's power_cut.boot): its time, and
its map, which must be the one read straight from the array.

Writes power_cut.csv / .md (one row per FTL and protection) into --out (default: bench/), and every
cut's figures to results/power_cut/cuts.csv. Each cut's row also goes, as it is made, to a journal
(--journal, default bench/power_cut_journal.jsonl.gz, kept in the repository: a gzip member per
row while the campaign runs, one member at its end): with --resume, the cuts it holds are not made again, so a campaign longer than a
session goes on where it stopped. Delete the journal when the simulator changes what a cut does.
"""
import argparse
import csv
import gzip
import json
import os
import random
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

from bench_common import ROOT, SSDSIM, write_tables

MLC = ["--set", "nand.t_prog_us=[200,600]", "--set", "nand.t_read_us=[25,40]",
       "--set", "firmware.erase_after_copies=true", "--set", "firmware.word_line_safety=true"]


def ftl_names():
    out = subprocess.run([SSDSIM, "ftls"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line[:1].isalpha() and line[:1].islower()]


def run(args, report):
    """One ssdsim run; returns (exit code, report or None, stderr)."""
    cmd = [SSDSIM, "run", *args, "--no-vcd", "-q", "--report", report]
    done = subprocess.run(cmd, capture_output=True, text=True)
    rep = None
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
        os.remove(report)
    return done.returncode, rep, done.stderr.strip()


def base_args(a, ftl, plp):
    args = ["-p", os.path.join(ROOT, "platforms", "tiny.yaml"), "--ftl", ftl, "--jobs",
            os.path.join(ROOT, "workloads", "database_fsync.yaml"), *MLC]
    if ftl == "subgroup":  # its superblocks' word-line padding spends tiny's pool at 20% (see the tests)
        args += ["--set", "ftl.overprovisioning=0.25"]
    if plp:
        args += ["--set", "firmware.write_buffer=page_lru", "--set", "firmware.plp=capacitors",
                 "--set", f"firmware.plp_hold_up_us={a.hold_up_us:g}"]
    return args


def cut_row(a, ftl, plp, option, value, work):
    code, rep, err = run(base_args(a, ftl, plp) + [option, value], os.path.join(work, f"{ftl}-{plp}-{option}{value}.json"))
    row = {"ftl": ftl, "plp": "capacitors" if plp else "none", "cut": f"{option} {value}", "exit": code,
           "problem": "" if code == 0 else (err.splitlines() or ["?"])[-1][:200]}
    if rep is None or "power_cut" not in rep:
        return row
    p = rep["power_cut"]
    fl, d, r = p["flash"], p["durability"], p["recovery"]
    row.update({"at_s": p["at_s"], "torn": fl["torn_pages"], "paired_lost": fl["paired_pages_lost"],
                "erases_cut": fl["erases_cut"], "buffered_lost": p["buffered_pages_lost"],
                "plp_pages_evicted": p["plp"]["pages_evicted"], "durable_lost": d["durable_pages_lost"],
                "garbage": d["garbage_pages"], "recovery_mismatches": d["recovery_mismatches"],
                "version_conflicts": r["version_conflicts"], "ack_not_durable": d["acknowledged_not_durable"],
                "ack_lost": d["acknowledged_lost"], "pages_scanned": r["pages_scanned"],
                "superseded": r["superseded_pages"], "unreadable": r["unreadable_pages"],
                "plp_pages_dumped": p["plp"]["pages_dumped"]})
    if "boot" in p:
        b = p["boot"]
        row.update({"recovery_ms": b["recovery_s"] * 1e3, "boot_pages_read": b["pages_read"],
                    "blocks_erased_again": b["blocks_erased_again"], "map_differences": b["map_differences"]})
    return row


def journal_key(row):
    """A cut's identity in the journal: FTL, protection and cut, as cut_row names them."""
    return row["ftl"], row["plp"], row["cut"]


def load_journal(path):
    """The rows of the cuts already made, by (FTL, protection, cut)."""
    if not os.path.exists(path):
        return {}
    rows = {}
    try:
        with gzip.open(path, "rt") as journal:
            for line in journal:
                r = json.loads(line)
                rows[journal_key(r)] = r
    except (EOFError, gzip.BadGzipFile, json.JSONDecodeError):  # a last member cut short (the session ended): the rows before it stand
        pass
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cuts", type=int, default=1000, help="cut points per FTL (and per protection)")
    p.add_argument("--ftls", default="", help="comma-separated (default: every FTL)")
    p.add_argument("--plp", action=argparse.BooleanOptionalAction, default=True,
                   help="make each cut again with capacitors")
    p.add_argument("--hold-up-us", type=float, default=250000,
                   help="the capacitors' hold-up: 250 ms program tiny's full 1,024-page buffer and GC's copies")
    p.add_argument("--seed", type=int, default=35)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", default=os.path.join(ROOT, "bench"))
    p.add_argument("--journal", default=os.path.join(ROOT, "bench", "power_cut_journal.jsonl.gz"),
                   help="every cut's row, appended as it is made")
    p.add_argument("--resume", action="store_true", help="take the journal's cuts instead of making them again")
    a = p.parse_args()
    work = os.path.join(ROOT, "results", "power_cut")
    os.makedirs(work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    ftls = a.ftls.split(",") if a.ftls else ftl_names()
    protections = [False, True] if a.plp else [False]
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        # The uncut runs: the range each FTL's cuts are drawn over.
        bases = dict(zip(ftls, pool.map(lambda f: run(base_args(a, f, False), os.path.join(work, f + "-base.json")), ftls)))
        jobs = []
        for ftl in ftls:
            code, rep, err = bases[ftl]
            if code != 0:
                raise SystemExit(f"{ftl}: the run without a cut failed: {err}")
            requests, seconds = rep["host"]["requests"], rep["host"]["simulated_seconds"]
            draw = random.Random(f"{a.seed}-{ftl}")
            for k in range(a.cuts):
                cut = (("--power-cut-after", str(draw.randint(1, requests - 1))) if k % 2 == 0
                       else ("--power-cut-at", f"{draw.uniform(1e-6, seconds):.6f}"))
                jobs += [(ftl, plp, *cut) for plp in protections]
        done = load_journal(a.journal) if a.resume else {}
        if not a.resume and os.path.exists(a.journal):
            os.remove(a.journal)
        lock = threading.Lock()

        def make(job):
            ftl, plp, option, value = job
            key = journal_key({"ftl": ftl, "plp": "capacitors" if plp else "none", "cut": f"{option} {value}"})
            if key in done:
                return done[key]
            row = cut_row(a, *job, work)
            with lock, gzip.open(a.journal, "at") as journal:  # a member per row: a cut lost at most
                journal.write(json.dumps(row) + "\n")
            return row

        rows = list(pool.map(make, jobs))
    # The journal again as one gzip member (a member per row compresses poorly): every row it held.
    done.update({journal_key(r): r for r in rows})
    with gzip.open(a.journal + ".tmp", "wt") as journal:
        journal.writelines(json.dumps(r) + "\n" for r in done.values())
    os.replace(a.journal + ".tmp", a.journal)
    columns = list(dict.fromkeys(k for r in rows for k in r))
    with open(os.path.join(work, "cuts.csv"), "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    summary = []
    for ftl in ftls:
        for plp in protections:
            mine = [r for r in rows if r["ftl"] == ftl and r["plp"] == ("capacitors" if plp else "none")]
            total = lambda k: sum(r.get(k, 0) for r in mine)
            summary.append({"FTL": ftl, "capacitors": "yes" if plp else "no", "cuts": len(mine),
                            "failed runs": sum(r["exit"] != 0 for r in mine), "durable pages lost": total("durable_lost"),
                            "garbage": total("garbage"), "recovered wrong": total("recovery_mismatches"),
                            "version conflicts": total("version_conflicts"), "torn programs": total("torn"),
                            "paired pages lost": total("paired_lost"), "erases cut": total("erases_cut"),
                            "acknowledged, not durable, lost": total("ack_lost"),
                            "pages scanned (mean)": round(total("pages_scanned") / max(1, len(mine))),
                            "map differences": total("map_differences"),
                            "blocks erased again": total("blocks_erased_again"),
                            "recovery ms (mean)": round(total("recovery_ms") / max(1, len(mine)), 2),
                            "recovery ms (max)": round(max((r.get("recovery_ms", 0) for r in mine), default=0), 2)})
    failures = [r for r in rows if r["exit"] != 0]
    notes = ["", f"{len(rows)} cuts ({a.cuts} per FTL and protection, seed {a.seed}); "
             f"{len(failures)} failed" + (": " + "; ".join(f"{r['ftl']} {r['cut']}: {r['problem']}" for r in failures[:5])
                                         if failures else ".")]
    write_tables(a.out, "power_cut", list(summary[0].keys()), summary, notes)


if __name__ == "__main__":
    main()
