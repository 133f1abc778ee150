#!/usr/bin/python3
"""A Markdown table from a sweep's results.csv: ROWS x COLUMNS of one figure, for the studies'
READMEs.

Usage: bench/sweeps/table.py DIR ROW_COLUMN COLUMN_COLUMN CELL [--where COLUMN=VALUE ...]
CELL is a format over the row's columns, e.g. "{iops/1000:.0f}k {bottleneck_class}" (numbers
are converted; a column name with dots or dashes is written with underscores).
"""
import argparse
import csv
import os
import re
import sys


def number(text):
    try:
        return float(text)
    except ValueError:
        return text


def order(values):
    return sorted(values, key=lambda v: (0, float(v), "") if re.fullmatch(r"-?[\d.]+", v) else (1, 0, v))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder")
    p.add_argument("rows")
    p.add_argument("columns")
    p.add_argument("cell")
    p.add_argument("--where", nargs="*", default=[])
    args = p.parse_args()
    with open(os.path.join(args.folder, "results.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    for condition in args.where:
        key, value = condition.split("=", 1)
        rows = [r for r in rows if r[key] == value]
    if not rows:
        sys.exit("table: no successful point matches")
    row_values, column_values = order({r[args.rows] for r in rows}), order({r[args.columns] for r in rows})
    cell_of = {}
    for r in rows:
        key = (r[args.rows], r[args.columns])
        if key in cell_of:
            sys.exit(f"table: several points give the cell {args.rows}={key[0]}, {args.columns}={key[1]} "
                     f"({cell_of[key]['point']}, {r['point']}): pick one with --where")
        cell_of[key] = r
    print(f"| {args.rows} \\ {args.columns} | " + " | ".join(column_values) + " |")
    print("|---|" + "---:|" * len(column_values))
    for rv in row_values:
        cells = []
        for cv in column_values:
            r = cell_of.get((rv, cv))
            if r is None:
                cells.append("-")
                continue
            fields = {re.sub(r"[.\-]", "_", k): number(v) for k, v in r.items()}
            cells.append(eval(f"f{args.cell!r}", {}, fields))  # the caller's own format string
        print(f"| {rv} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
