"""Helpers the benchmark scripts share: running ssdsim, reading its report, writing tables."""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))  # the test suite sets it
TRACES_DIR = os.path.join(ROOT, "..", "shared", "traces")


def run_ssdsim(args, report):
    """Runs `ssdsim run ARGS --report REPORT -q --no-vcd`; exits with its message on failure."""
    cmd = [SSDSIM, "run", *args, "--no-vcd", "-q", "--report", report]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
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
