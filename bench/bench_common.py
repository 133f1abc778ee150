"""Helpers the benchmark scripts share: running ssdsim, reading its report, writing tables."""
import argparse
import csv
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))  # the test suite sets it
TRACES_DIR = os.path.join(ROOT, "..", "shared", "traces")


def run_ssdsim(args, report, may_fail=False):
    """Runs `ssdsim run ARGS --report REPORT -q --no-vcd`; exits with its message on failure, or
    with may_fail returns {"failed": its message} (a configuration the FTL refuses at run time,
    such as a pool spent, is a result a table shows, not a broken study)."""
    cmd = [SSDSIM, "run", *args, "--no-vcd", "-q", "--report", report]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        if may_fail:  # the message, without SystemC's "In file:" and "In process:" lines
            lines = [x.strip() for x in done.stderr.splitlines()
                     if x.strip() and not x.strip().startswith(("In file:", "In process:"))]
            return {"failed": " ".join(lines)[-2000:] if lines else f"exit {done.returncode}"}
        sys.exit(f"{' '.join(cmd)}\nfailed ({done.returncode}): {done.stderr.strip()}")
    with open(report) as f:
        return json.load(f)


def effective_number(report, key):
    """A platform parameter from the report (lists: their first element)."""
    value = report["platform"]["effective"][key]
    return float(value[0] if isinstance(value, list) else value)


def write_tables(out_dir, name, columns, rows, extra_lines=()):
    """Writes NAME.csv and NAME.md (the rows as a table, then extra_lines) into out_dir."""
    with open(os.path.join(out_dir, name + ".csv"), "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(r[c]) for c in columns) + " |" for r in rows]
    lines += list(extra_lines)
    with open(os.path.join(out_dir, name + ".md"), "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def study_arguments(doc, ftls, name, more=None):
    """The options of a study over FTLs (--ftls, --jobs, --out; `more(parser)` adds its own),
    parsed; a.ftls is a list, and a.work (results/<name>) holds the runs' reports."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    if more:
        more(p)
    p.add_argument("--ftls", default=",".join(ftls))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", default=os.path.join(ROOT, "bench"))
    a = p.parse_args()
    a.ftls = a.ftls.split(",")
    a.work = os.path.join(ROOT, "results", name)
    os.makedirs(a.work, exist_ok=True)
    return a


def drive_study_arguments(doc, sizes, ftls, name, more=None):
    """study_arguments with --sizes platform:blocks_per_plane,... as well; a.sizes is
    [(platform, blocks)]."""
    def options(p):
        if more:
            more(p)
        p.add_argument("--sizes", default=",".join(f"{pl}:{b}" for pl, b in sizes),
                       help="platform:blocks_per_plane, comma-separated")
    a = study_arguments(doc, ftls, name, options)
    a.sizes = [(s.split(":")[0], int(s.split(":")[1])) for s in a.sizes.split(",")]
    return a


def run_jobs(a, one, jobs):
    """one(a, *job) for every job, a.jobs at a time; the results in the jobs' order."""
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        return list(pool.map(lambda j: one(a, *j), jobs))


def pyplot():
    """matplotlib.pyplot drawing to files (the Agg backend), or None when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt
