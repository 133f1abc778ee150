#!/usr/bin/python3
"""Plots from an ssdsim report (results/report.json): the latency CDF, throughput and latency
over time with how busy each resource was, power over time by component, how busy each channel's
dies were, and the erase-count histogram (wear).

Usage: tools/plot_report.py REPORT [--out DIR] [--format png|svg]
Writes DIR/latency_cdf.FMT, over_time.FMT, power.FMT, die_busy.FMT and erase_counts.FMT (DIR defaults to
the report's folder) and prints their paths. Needs python3-matplotlib (Debian).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402


def title(report):
    return f"{report['platform']['name']} | {report['ftl']['name']} | {report['workload']['description']}"


def latency_cdf(report, ax):
    cdfs = report["host"]["latency_cdf_us"]
    for kind in ("all", "read", "write"):
        points = cdfs.get(kind, [])
        if points:
            ax.plot([v for _, v in points], [q for q, _ in points], label=kind, drawstyle="steps-post")
    ax.set_xscale("log")
    ax.set_xlabel("latency (us)")
    ax.set_ylabel("fraction of requests")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()


def over_time(report, axes):
    series = report["host"]["over_time"]
    t = [p["start_s"] for p in series["points"]]
    axes[0].plot(t, [p["mb_per_s"] for p in series["points"]], drawstyle="steps-post")
    axes[0].set_ylabel("MB/s")
    axes[1].plot(t, [p["mean_latency_us"] for p in series["points"]], label="mean", drawstyle="steps-post")
    axes[1].plot(t, [p["max_latency_us"] for p in series["points"]], label="max", drawstyle="steps-post", alpha=0.6)
    axes[1].set_ylabel("latency (us)")
    axes[1].set_yscale("log")  # mean and max differ by orders of magnitude under GC
    axes[1].legend()
    busy = report["utilization"]["over_time"]
    for name, shares in sorted(busy["series"].items()):
        axes[2].plot(busy["start_s"], [100 * s for s in shares], label=name, drawstyle="steps-post")
    axes[2].set_ylabel("busy (% of interval)")
    axes[2].set_xlabel(f"simulated time (s); host {series['interval_s'] * 1000:g} ms, "
                       f"busy {busy['interval_s'] * 1000:g} ms intervals")
    axes[2].legend(fontsize=6, ncol=3)
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)


def power(report, ax):
    """Power over time, stacked by component (the report's energy.over_time), with the mean."""
    e = report["energy"]
    w = e["over_time"]
    t = [i * w["interval_s"] for i in range(len(w["power_w"]))]
    parts = [(name, watts) for name, watts in w["component_w"].items() if any(watts)]
    if t:
        ax.stackplot(t, *[watts for _, watts in parts], labels=[name for name, _ in parts], step="post")
    ax.axhline(e["average_w"], color="black", linestyle="--", linewidth=0.8, label=f"mean {e['average_w']:.3g} W")
    ax.set_ylabel("power (W)")
    ax.set_xlabel(f"simulated time (s), {w['interval_s'] * 1000:g} ms intervals; "
                  f"{e['total_j']:.4g} J in all, peak {e['peak_w']:.3g} W")
    ax.legend(fontsize=6, ncol=4, loc="upper right")
    ax.grid(True, alpha=0.3)


def die_busy(report, ax):
    labels, values = [], []
    for c, channel in enumerate(report["hardware"]["channels"]):
        for d, die in enumerate(channel["dies"]):
            labels.append(f"ch{c}/d{d}")
            values.append(100 * die["busy_fraction"])
    ax.bar(range(len(values)), values)
    ax.set_xticks(range(len(values)))
    ax.set_xticklabels(labels, rotation=90, fontsize=6)
    ax.set_ylabel("busy (% of simulated time)")
    ax.grid(True, axis="y", alpha=0.3)


def erase_counts(report, ax):
    pairs = report["hardware"]["erase_count_histogram"]
    ax.bar([e for e, _ in pairs], [b for _, b in pairs], width=1.0)
    ax.set_xlabel("erase count")
    ax.set_ylabel("blocks")
    ax.grid(True, axis="y", alpha=0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("report")
    p.add_argument("--out", help="output folder (default: the report's)")
    p.add_argument("--format", default="png", choices=["png", "svg"])
    args = p.parse_args()
    try:
        with open(args.report) as f:
            report = json.load(f)
        if report.get("schema") != "ssd-vp-report/1":
            raise ValueError(f"schema is {report.get('schema')!r}, expected 'ssd-vp-report/1'")
    except (OSError, ValueError) as e:
        sys.exit(f"plot_report: {args.report}: {e}")
    out = args.out or os.path.dirname(os.path.abspath(args.report))
    os.makedirs(out, exist_ok=True)

    figures = {
        "latency_cdf": (1, lambda fig, axes: latency_cdf(report, axes[0])),
        "over_time": (3, lambda fig, axes: over_time(report, axes)),
        "power": (1, lambda fig, axes: power(report, axes[0])),
        "die_busy": (1, lambda fig, axes: die_busy(report, axes[0])),
        "erase_counts": (1, lambda fig, axes: erase_counts(report, axes[0])),
    }
    for name, (rows, draw) in figures.items():
        fig, axes = plt.subplots(rows, 1, figsize=(9, 3.2 * rows + 0.6), squeeze=False)
        draw(fig, [a[0] for a in axes])
        fig.suptitle(title(report), fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, f"{name}.{args.format}")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)


if __name__ == "__main__":
    main()
