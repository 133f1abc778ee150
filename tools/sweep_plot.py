#!/usr/bin/python3
"""Plots of a sweep made by tools/sweep.py (DIR/results.csv and the points' reports).

Usage: tools/sweep_plot.py DIR [--out PLOTS] [--format png,svg] [--cdf POINT ...] [--metric COLUMN]
                            [--split COLUMN]

Draws, for every swept parameter P (the others form one line each):
  vs_P.FMT             throughput (MB/s) and p99 latency (log scale) versus P; a results column
                       bound_<metric> (e.g. bound_throughput_mb_per_s, added by a study's own
                       closed-form script) is drawn dashed beside the measured line
  busy_vs_P.FMT        busy share of every resource class versus P, one panel per line of the above
and, when geometry.channels and geometry.ways are both swept, one pair per combination of the
other parameters:
  heatmap_throughput[_GROUP].FMT   channels x ways throughput
  heatmap_bottleneck[_GROUP].FMT   channels x ways bottleneck class (dies, channels, cores, ...)
and latency_cdf.FMT: latency CDFs of chosen points overlaid on a log latency axis (--cdf takes
point names from results.csv, or COLUMN=VALUE filters such as geometry.channels=4; default: the
fastest, the median and the slowest point of each line group, at most 8).
--split COLUMN draws each value of a swept column (e.g. workload_name) in a folder of its own.
Failed points are left out of the plots and listed. Needs python3-matplotlib (Debian).
"""
import argparse
import csv
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BUSY_COLUMNS = ["busy_dies_mean", "busy_dies_max", "busy_channels_mean", "busy_channels_max", "busy_system_bus",
                "busy_dram", "busy_sram", "busy_host_link_to_device", "busy_host_link_to_host", "busy_cores"]
BOTTLENECK_CLASSES = ["host", "dies", "channels", "cores", "system bus", "dram", "sram", "host link"]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def load(folder):
    path = os.path.join(folder, "results.csv")
    try:
        with open(os.path.join(folder, "sweep.json")) as f:
            sweep = json.load(f)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"sweep_plot: {e.filename}: {e.strerror} (is {folder} a tools/sweep.py output folder?)")
    return sweep, rows, axes(sweep)


def axes(sweep):
    """The swept parameters that are axes of their own: a zip group counts once (its first key),
    and blocks per plane is left out when it only follows the geometry (preserve_capacity)."""
    swept = list(sweep["points"][0]["values"].keys()) if sweep["points"] else []
    definition = sweep.get("definition", {})
    for group in definition.get("zip") or []:
        swept = [k for k in swept if k not in list(group)[1:]]
    if definition.get("preserve_capacity") and "geometry.blocks_per_plane" not in (definition.get("grid") or {}):
        swept = [k for k in swept if k != "geometry.blocks_per_plane"]
    return swept


def metric_label(column):
    return column.replace("throughput_mb_per_s", "throughput (MB/s)").replace("_", " ")


def sort_key(value):
    n = number(value)
    return (0, n, "") if n is not None else (1, 0, str(value))


CONTEXT = {"split": ""}  # the --split value being drawn, named in titles


def label(row, keys):
    return ", ".join(f"{k.split('.')[-1]}={row[k]}" for k in keys) or CONTEXT["split"] or "all"


def groups_by(rows, keys):
    """Rows grouped by their values of `keys`, in first-seen order."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in keys), []).append(r)
    return groups


def save(fig, out, name, formats):
    fig.tight_layout()
    paths = []
    for fmt in formats:
        path = os.path.join(out, f"{name}.{fmt}")
        fig.savefig(path, dpi=110)
        paths.append(path)
    plt.close(fig)
    for p in paths:
        print(p)


def categorical_axis(ax, all_values):
    """Sets up an x axis for every value the parameter takes (all lines share it) and returns
    value -> x: numbers on a log2 axis when they span powers of two, text as categories."""
    nums = {v: number(v) for v in all_values}
    if all(n is not None and n > 0 for n in nums.values()):
        if max(nums.values()) / min(nums.values()) >= 8:
            ax.set_xscale("log", base=2)
        ticks = sorted(set(nums.values()))
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.minorticks_off()
        return lambda v: nums[v]
    ticks = sorted(set(all_values), key=sort_key)
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks, rotation=30, fontsize=7)
    return lambda v: ticks.index(v)


def versus(rows, swept, key, out, formats, metric):
    others = [k for k in swept if k != key]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5), sharex=True)
    x_of = categorical_axis(top, [r[key] for r in rows])
    categorical_axis(bottom, [r[key] for r in rows])
    for group, members in groups_by(rows, others).items():
        members = sorted(members, key=lambda r: sort_key(r[key]))
        xs = [x_of(r[key]) for r in members]
        line, = top.plot(xs, [number(r[metric]) for r in members], marker="o", label=label(members[0], others))
        bound = "bound_" + metric
        if bound in members[0] and any(number(r[bound]) is not None for r in members):
            top.plot(xs, [number(r[bound]) for r in members], linestyle="--", color=line.get_color(), alpha=0.7)
        bottom.plot(xs, [number(r["latency_p99_us"]) for r in members], marker="o", color=line.get_color())
    top.set_ylabel(metric_label(metric) + (" (dashed: closed-form bound)" if "bound_" + metric in rows[0] else ""))
    bottom.set_ylabel("p99 latency (us)")
    bottom.set_yscale("log")
    bottom.set_xlabel(key)
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    if len(groups_by(rows, others)) > 1:
        top.legend(fontsize=6, ncol=2)
    save(fig, out, f"vs_{key}", formats)


def busy_versus(rows, swept, key, out, formats):
    others = [k for k in swept if k != key]
    groups = groups_by(rows, others)
    n = len(groups)
    cols = min(3, n)
    rows_n = math.ceil(n / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.4 * rows_n + 0.5), squeeze=False, sharey=True)
    for i, (group, members) in enumerate(groups.items()):
        ax = axes[i // cols][i % cols]
        members = sorted(members, key=lambda r: sort_key(r[key]))
        x_of = categorical_axis(ax, [r[key] for r in rows])
        xs = [x_of(r[key]) for r in members]
        for column in BUSY_COLUMNS:
            ys = [number(r.get(column)) for r in members]
            if any(y for y in ys if y is not None):
                ax.plot(xs, [100 * (y or 0) for y in ys], marker=".", label=column[5:].replace("_", " "))
        ax.set_title(label(members[0], others), fontsize=7)
        ax.set_xlabel(key, fontsize=7)
        ax.set_ylim(0, 105)
        ax.grid(True, which="both", alpha=0.3)
    for j in range(n, rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][0].set_ylabel("busy (% of simulated time)")
    axes[0][0].legend(fontsize=6)
    save(fig, out, f"busy_vs_{key}", formats)


def heatmaps(rows, swept, out, formats, metric):
    if "geometry.channels" not in swept or "geometry.ways" not in swept:
        return
    others = [k for k in swept if k not in ("geometry.channels", "geometry.ways")]
    for group, members in groups_by(rows, others).items():
        channels = sorted({r["geometry.channels"] for r in members}, key=sort_key)
        ways = sorted({r["geometry.ways"] for r in members}, key=sort_key)
        cell = {(r["geometry.channels"], r["geometry.ways"]): r for r in members}
        suffix = ("_" + "_".join(str(v) for v in group)).replace("/", "_") if group else ""
        title = label(members[0], others)
        grid = [[number(cell[(c, w)][metric]) if (c, w) in cell else math.nan for c in channels] for w in ways]
        fig, ax = plt.subplots(figsize=(6.5, 5))
        image = ax.imshow(grid, origin="lower", cmap="viridis")
        for y, w in enumerate(ways):
            for x, c in enumerate(channels):
                v = grid[y][x]
                if not math.isnan(v):
                    ax.text(x, y, f"{v:.3g}", ha="center", va="center", fontsize=7, color="white")
        ax.set_xticks(range(len(channels)), channels)
        ax.set_yticks(range(len(ways)), ways)
        ax.set_xlabel("channels")
        ax.set_ylabel("ways")
        ax.set_title(f"{metric_label(metric)}\n{title}", fontsize=8)
        fig.colorbar(image, ax=ax)
        save(fig, out, f"heatmap_{metric}{suffix}", formats)

        classes = [c for c in BOTTLENECK_CLASSES if any(r.get("bottleneck_class") == c for r in members)]
        classes += sorted({r["bottleneck_class"] for r in members} - set(classes))
        index = {c: i for i, c in enumerate(classes)}
        grid = [[index.get(cell[(c, w)]["bottleneck_class"], math.nan) if (c, w) in cell else math.nan
                 for c in channels] for w in ways]
        fig, ax = plt.subplots(figsize=(6.5, 5))
        cmap = plt.get_cmap("tab10", max(len(classes), 1))
        ax.imshow(grid, origin="lower", cmap=cmap, vmin=-0.5, vmax=len(classes) - 0.5)
        for y, w in enumerate(ways):
            for x, c in enumerate(channels):
                if (c, w) in cell:
                    r = cell[(c, w)]
                    busy = number(r["busiest_busy"]) or 0
                    ax.text(x, y, f"{r['bottleneck_class']}\n{100 * busy:.0f}%", ha="center", va="center",
                            fontsize=6, color="white")
        ax.set_xticks(range(len(channels)), channels)
        ax.set_yticks(range(len(ways)), ways)
        ax.set_xlabel("channels")
        ax.set_ylabel("ways")
        ax.set_title(f"bottleneck (busiest resource class when bound, else host)\n{title}", fontsize=8)
        save(fig, out, f"heatmap_bottleneck{suffix}", formats)


def chosen_points(rows, swept, choices, metric):
    if choices:
        picked = []
        for choice in choices:
            if "=" in choice and not any(r["point"] == choice for r in rows):
                filters = dict(part.split("=", 1) for part in choice.split(","))
                unknown = [k for k in filters if rows and k not in rows[0]]
                if unknown:
                    sys.exit(f"sweep_plot: --cdf {choice}: no column {unknown[0]} in results.csv")
                picked += [r for r in rows if all(r[k] == v for k, v in filters.items())]
            else:  # a point's name; with --split, only the part that holds it draws it
                picked += [r for r in rows if r["point"] == choice]
        return picked
    picked = []
    others = swept[1:] if len(swept) > 1 else []
    for members in groups_by(rows, others).values():
        ranked = sorted(members, key=lambda r: number(r[metric]) or 0)
        for r in (ranked[-1], ranked[len(ranked) // 2], ranked[0]):
            if r not in picked:
                picked.append(r)
    return picked[:8]


def latency_cdfs(folder, rows, swept, out, formats, choices, metric):
    points = chosen_points(rows, swept, choices, metric)
    if not points:
        return
    fig, ax = plt.subplots(figsize=(9, 5))
    for r in points:
        with open(os.path.join(folder, r["report"])) as f:
            cdf = json.load(f)["host"]["latency_cdf_us"]["all"]
        ax.plot([v for _, v in cdf], [q for q, _ in cdf], drawstyle="steps-post", label=label(r, swept))
    ax.set_xscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("fraction of requests")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    save(fig, out, "latency_cdf", formats)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", help="a tools/sweep.py --out folder")
    p.add_argument("--out", help="folder for the plots (default: FOLDER/plots)")
    p.add_argument("--format", default="png,svg", help="comma-separated: png, svg (default both)")
    p.add_argument("--cdf", nargs="*", default=[], help="points whose latency CDFs to overlay (names or COLUMN=VALUE)")
    p.add_argument("--metric", default="throughput_mb_per_s", help="throughput column (default throughput_mb_per_s; "
                   "iops, read_iops, ...)")
    p.add_argument("--split", help="a swept column: one folder of plots per value")
    args = p.parse_args()
    formats = [f for f in args.format.split(",") if f]
    if not formats or any(f not in ("png", "svg") for f in formats):
        p.error("--format takes png, svg or png,svg")
    sweep, rows, swept = load(args.folder)
    all_rows = rows
    failed = [r for r in rows if r["status"] != "ok"]
    rows = [r for r in rows if r["status"] == "ok"]
    if not rows:
        sys.exit(f"sweep_plot: {args.folder}: no point ran successfully")
    if args.metric not in rows[0]:
        sys.exit(f"sweep_plot: --metric {args.metric}: no such column in results.csv")
    out = args.out or os.path.join(args.folder, "plots")
    if args.split and args.split not in swept:
        sys.exit(f"sweep_plot: --split {args.split}: not a swept column ({', '.join(swept)})")
    if args.cdf:
        names = {r["point"] for r in all_rows}
        missing = [c for c in args.cdf if "=" not in c and c not in names]
        if missing:
            sys.exit(f"sweep_plot: --cdf {missing[0]}: no such point in results.csv")
    parts = groups_by(rows, [args.split]) if args.split else {(): rows}
    for value, part in parts.items():
        # A folder name from the value (a path value gives its file name, never a path).
        folder = os.path.join(out, *[re.sub(r"[^A-Za-z0-9=.,_+-]", "_", os.path.basename(str(v))) or "_"
                                     for v in value])
        keys = [k for k in swept if k != args.split]
        CONTEXT["split"] = f"{args.split}={value[0]}" if args.split else ""
        os.makedirs(folder, exist_ok=True)
        for key in keys:
            if len({r[key] for r in part}) > 1:
                versus(part, keys, key, folder, formats, args.metric)
                busy_versus(part, keys, key, folder, formats)
        heatmaps(part, keys, folder, formats, args.metric)
        latency_cdfs(args.folder, part, keys, folder, formats, args.cdf, args.metric)
    for r in failed:
        print(f"left out (failed): {r['point']}: {r['error'].splitlines()[-1] if r['error'] else 'no report'}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
