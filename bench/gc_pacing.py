#!/usr/bin/python3
"""GC pacing (issue 13): steady-state random writes under the `threshold` and `paced` policies.

After --precondition fill+steady, COUNT 8 KiB random writes at QD32 on a platform (default:
platforms/default.yaml, page mapping) with ftl.gc_pacing=threshold and =paced. Prints per
policy: throughput, the share of 100 ms windows below 20% of the mean throughput (a GC storm
shows as most windows near zero), write latency p99 and max, the measured window's WAF and the
WAF the preconditioning settled at. Writes gc_pacing.csv / .md into --out (default: bench/).
"""
import argparse
import os
import tempfile

from bench_common import ROOT, run_ssdsim, write_tables


def windows_below(report, share=0.2, window_s=0.1):
    """(windows, how many ran below `share` of the mean throughput) over windows of ~window_s."""
    over = report["host"]["over_time"]
    dt = over["interval_s"]
    per = max(1, round(window_s / dt))
    rates = [p["mb_per_s"] for p in over["points"]]
    windows = [sum(rates[i:i + per]) / per for i in range(0, len(rates) - per + 1, per)]
    mean = sum(windows) / len(windows)
    return len(windows), sum(1 for w in windows if w < share * mean), per * dt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--platform", default=os.path.join(ROOT, "platforms", "default.yaml"))
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--set", action="append", default=[], help="extra --set KEY=VALUE for both runs")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for pacing in ("threshold", "paced"):
            args = ["-p", a.platform, "--set", f"ftl.gc_pacing={pacing}", "--synthetic", "random",
                    "--read-fraction", "0", "--request-bytes", "8192", "--qd", "32", "--count", str(a.count),
                    "--precondition", "fill+steady"]
            for s in a.set:
                args += ["--set", s]
            r = run_ssdsim(args, os.path.join(tmp, pacing + ".json"))
            n, low, width = windows_below(r)
            lat = r["host"]["write_latency_us"]
            rows.append({
                "gc_pacing": pacing,
                "MB/s": f"{r['host']['mb_per_s']:.1f}",
                # The window follows the report's interval (it doubles as runs grow), so it can
                # differ between the two runs: in the cell, not the column name.
                "windows < 20% of mean": f"{low} of {n} ({100 * low / n:.1f}%, {width * 1000:.0f} ms)",
                "p99 ms": f"{lat['p99'] / 1000:.1f}",
                "max ms": f"{lat['max'] / 1000:.1f}",
                "WAF (window)": f"{r['ftl_metrics']['waf']:.3f}",
                "WAF (settled)": f"{r['preconditioning']['settled_waf']:.3f}",
                "catch-ups": r["ftl_metrics"].get("gc_catch_ups", 0),
                "SNIA steady state": f"{r['steady_state']['verdict']} (range {100 * r['steady_state']['range_share']:.0f}%,"
                                     f" slope {100 * r['steady_state']['slope_share']:.0f}%)",
            })
    write_tables(a.out, "gc_pacing", list(rows[0].keys()), rows)


if __name__ == "__main__":
    main()
