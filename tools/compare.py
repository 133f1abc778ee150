#!/usr/bin/python3
"""Side by side: ssdsim reports (results/report.json files).

Usage: tools/compare.py A.json B.json [C.json ...] [--all] [--plot OUT_PREFIX] [--format png|svg]

Prints every headline figure (throughput, IOPS, latency per operation, WAF, erases, busy shares,
bottleneck, simulated and wall seconds; the columns of tools/sweep.py's results.csv) for each
report, with each report's ratio to the first; then every effective parameter, FTL parameter
and workload setting that differs between them. --all prints the figures that are equal too.
--plot overlays their latency CDFs (log latency axis) and throughput over time in
OUT_PREFIX_latency_cdf.FMT and OUT_PREFIX_over_time.FMT.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ssdsweep.results import REPORT_COLUMNS, lookup  # noqa: E402

DESCRIPTIVE = {"platform", "ftl", "workload"}  # shown in the header, not as figures


def load(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except OSError as e:
        sys.exit(f"compare: {path}: {e.strerror}")
    except ValueError as e:
        sys.exit(f"compare: {path}: not JSON ({e})")
    if report.get("schema") != "ssd-vp-report/1":
        sys.exit(f"compare: {path}: not an ssdsim report (schema {report.get('schema')!r})")
    return report


def cell(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.6g}"
    return "-" if v == "" or v is None else str(v)


def ratio(v, base):
    if isinstance(v, bool) or isinstance(base, bool):
        return ""
    if not isinstance(v, (int, float)) or not isinstance(base, (int, float)):
        return ""
    if base == 0:
        return "" if v == 0 else "(new)"
    return f"x{v / base:.3f}"


def table(rows, headers):
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in
                               enumerate(zip(r, widths))))
    return "\n".join(lines)


def figures(reports, show_all):
    rows = []
    figures_list = [(c, p) for c, p in REPORT_COLUMNS if c not in DESCRIPTIVE] + [
        ("peak_rss_mib", "simulation/peak_rss_mib")]
    for column, path in figures_list:
        values = [lookup(r, path) for r in reports]
        if all(v == "" for v in values):
            continue
        if not show_all and all(v == values[0] for v in values):
            continue
        row = [column, cell(values[0])]
        for v in values[1:]:
            row += [cell(v), ratio(v, values[0])]
        rows.append(row)
    return rows


def differences(reports):
    """Effective platform parameters, FTL parameters and workload settings that differ."""
    rows = []
    sections = [("platform.effective", lambda r: r["platform"]["effective"]),
                ("ftl.parameters", lambda r: r["ftl"]["parameters"]),
                ("workload", lambda r: {k: v for k, v in r["workload"].items()
                                        if not isinstance(v, (dict, list))})]
    for name, get in sections:
        maps = [get(r) for r in reports]
        for key in sorted(set().union(*maps)):
            values = [m.get(key, "(none)") for m in maps]
            if any(v != values[0] for v in values):
                rows.append([f"{name}.{key}", *[cell(v) for v in values]])
    return rows


def plot(reports, names, prefix, fmt):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 5))
    for report, name in zip(reports, names):
        cdf = report["host"]["latency_cdf_us"]["all"]
        ax.plot([v for _, v in cdf], [q for q, _ in cdf], drawstyle="steps-post", label=name)
    ax.set_xscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("fraction of requests")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    paths = [f"{prefix}_latency_cdf.{fmt}"]
    fig.savefig(paths[0], dpi=110)
    plt.close(fig)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    for report, name in zip(reports, names):
        series = report["host"]["over_time"]
        t = [p["start_s"] for p in series["points"]]
        top.plot(t, [p["mb_per_s"] for p in series["points"]], drawstyle="steps-post", label=name)
        bottom.plot(t, [p["mean_latency_us"] for p in series["points"]], drawstyle="steps-post", label=name)
    top.set_ylabel("MB/s")
    bottom.set_ylabel("mean latency (us)")
    bottom.set_yscale("log")
    bottom.set_xlabel("simulated time (s)")
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    top.legend(fontsize=7)
    fig.tight_layout()
    paths.append(f"{prefix}_over_time.{fmt}")
    fig.savefig(paths[1], dpi=110)
    plt.close(fig)
    return paths


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("reports", nargs="+", help="two or more report.json files")
    p.add_argument("--all", action="store_true", help="also print the figures that are equal in every report")
    p.add_argument("--plot", metavar="OUT_PREFIX", help="write overlaid latency CDFs and throughput over time")
    p.add_argument("--format", default="png", choices=["png", "svg"])
    args = p.parse_args()
    if len(args.reports) < 2:
        p.error("give at least two reports")
    reports = [load(path) for path in args.reports]
    names = [chr(ord("A") + i) if i < 26 else str(i) for i in range(len(reports))]
    for name, path, r in zip(names, args.reports, reports):
        print(f"{name}: {path}\n   {r['platform']['name']} | FTL {r['ftl']['name']} | {r['workload']['description']}")
    print()
    headers = ["figure", "A"]
    for name in names[1:]:
        headers += [name, f"{name}/A"]
    rows = figures(reports, args.all)
    print(table(rows, headers) if rows else "every headline figure is equal")
    print()
    diff = differences(reports)
    print(table(diff, ["setting", *names]) if diff else "no effective parameter or workload setting differs")
    if args.plot:
        for path in plot(reports, names, args.plot, args.format):
            print(path)


if __name__ == "__main__":
    main()
