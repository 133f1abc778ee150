#!/usr/bin/python3
"""The read latency tail against wear and retention (issue 34): how read-retry grows the tail as
a drive ages.

On a platform with the NAND error model on (default: platforms/default.yaml, page mapping, the
2y-nm MLC RBER law of Kim et al. FAST'19 and 24-bit BCH with 8 read-retry steps), the drive is
filled and aged in closed form (--precondition fill+pe:P+days:D: every block erased P times,
the data D days old), then COUNT 4 KiB random reads run at queue depth 1 (the device's own
latency) and at QD (with queueing), with the platform's ECC and with weaker BCH codes (--ecc: bits
corrected per 1 KiB codeword, parity 14 bits per bit). Per point: the mean RBER of the reads,
read-retry steps per read, soft decodes, uncorrectable reads, and the read latency mean, p50,
p99, p99.9.

The RBER law was fitted up to about 3,000 cycles and 90 days; the points beyond (to 180 days)
extrapolate it and are marked so in the table.

Writes read_tail_aging.csv / .md / .png into --out (default: bench/).
"""
import argparse
import os
import tempfile

from bench_common import ROOT, run_ssdsim, write_tables

PE = [0, 1000, 2000, 3000]
DAYS = [0, 30, 60, 90, 120, 150, 180]
FITTED_DAYS = 90


def plot(rows, qd, eccs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, grid = plt.subplots(len(eccs), 2, figsize=(12, 4.2 * len(eccs)), sharey=True, squeeze=False)
    for ecc, axes in zip(eccs, grid):
        for ax, depth in zip(axes, (1, qd)):
            for pe in PE:
                pts = [r for r in rows if r["P/E"] == pe and r["QD"] == depth and r["ECC bits"] == ecc]
                days = [r["days"] for r in pts]
                ax.plot(days, [r["p99 us"] for r in pts], marker="o", label=f"{pe} P/E, p99")
                ax.plot(days, [r["p99.9 us"] for r in pts], marker="x", linestyle="--", label=f"{pe} P/E, p99.9")
            ax.axvspan(FITTED_DAYS, max(DAYS), color="0.92", zorder=0)
            ax.text(FITTED_DAYS + 2, 0.97, "extrapolated", transform=ax.get_xaxis_transform(), va="top", fontsize=8)
            ax.set_title(f"4 KiB random reads, QD {depth}, {ecc}-bit BCH per KiB")
            ax.set_xlabel("data age (days)")
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("read latency (us)")
    grid[0][1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--platform", default=os.path.join(ROOT, "platforms", "default.yaml"))
    ap.add_argument("--count", type=int, default=40000, help="reads per point")
    ap.add_argument("--qd", type=int, default=32, help="the queued depth (the other is 1)")
    ap.add_argument("--ecc", default="24,12", help="BCH bits corrected per 1 KiB codeword, comma-separated")
    ap.add_argument("--set", action="append", default=[], help="extra --set KEY=VALUE for every run")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench"))
    a = ap.parse_args()
    eccs = [int(x) for x in a.ecc.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for ecc, depth, pe, days in ((e, q, p, d) for e in eccs for q in (1, a.qd) for p in PE for d in DAYS):
            args = ["-p", a.platform, "--synthetic", "random", "--read-fraction", "1", "--request-bytes", "4096",
                    "--qd", str(depth), "--count", str(a.count), "--seed", "1",
                    "--precondition", f"fill+pe:{pe}+days:{days}", "--set", "ecc.codeword_bytes=1024",
                    "--set", f"ecc.correctable_bits={ecc}", "--set", f"ecc.parity_bytes={(14 * ecc + 7) // 8}"]
            for s in a.set:
                args += ["--set", s]
            r = run_ssdsim(args, os.path.join(tmp, f"{ecc}-{depth}-{pe}-{days}.json"))
            if "reliability" not in r:
                raise SystemExit(f"{a.platform}: the NAND error model is off (reliability.errors)")
            rel, lat = r["reliability"], r["host"]["read_latency_us"]
            rows.append({"ECC bits": ecc, "QD": depth, "P/E": pe, "days": days,
                         "fitted": "yes" if days <= FITTED_DAYS else "extrapolated",
                         "RBER": f"{rel['rber_mean']:.3g}",
                         "retries/read": round(rel["retries_per_read"], 3),
                         "soft decodes": rel["soft_decodes"],
                         "uncorrectable": rel["uncorrectable_page_reads"],
                         "failed host reads": rel["failed_host_reads"],
                         "mean us": round(lat["mean"], 1), "p50 us": round(lat["p50"], 1),
                         "p99 us": round(lat["p99"], 1), "p99.9 us": round(lat["p99_9"], 1)})
    plot(rows, a.qd, eccs, os.path.join(a.out, "read_tail_aging.png"))
    write_tables(a.out, "read_tail_aging", list(rows[0].keys()), rows, [
        "", f"Made by `bench/read_tail_aging.py --count {a.count} --qd {a.qd} --ecc {a.ecc}` on {os.path.relpath(a.platform, ROOT)}"
        + "".join(f" --set {s}" for s in a.set) + "; plot: read_tail_aging.png."])


if __name__ == "__main__":
    main()
