#!/usr/bin/python3
"""Drive lifetime per FTL and wear-leveling policy (issue 34): host writes until the drive turns
read-only (its spare blocks spent on grown bad blocks) or a host read fails uncorrectable.

A small drive (default: platforms/tiny.yaml, 64 MiB) takes 4 KiB random writes with a share of
reads until well past its end of life, uniform over the drive and skewed (--skews: by default also
hotcold:0.2:0.8, a fifth of the space taking four fifths of the requests, where the cold blocks
keep their data and only static wear leveling moves it). Its wear is accelerated by a factor S (--scale): one
simulated P/E cycle counts as S real ones, exactly, by scaling what the cycles c enter:
  - the grown-bad-block hazard: failures.rated_pe_cycles = R / S (the hazard is a function of c/R);
  - the RBER law eps + alpha c^k + beta c^m t^n + gamma c^p r^q: alpha S^k, beta S^m, gamma S^p.
So a drive rated for R = 3,000 cycles reaches them after 3000 / S simulated cycles. The errors are
the shipped 2y-nm MLC law with a BCH code that fits tiny's 128-byte spare area (18 bits per 1 KiB
codeword, 32 parity bytes, 8 read-retry steps); the failures are the shipped hazard (1.5% of the
blocks grown bad by the rated cycles, k = 3, half of them erase failures). No factory bad blocks,
so the policies differ by wear alone.

Each FTL and policy first runs the whole workload once per failure seed (--seeds: which blocks
fail, and when, is drawn, so one run is one sample): the writes accepted before the drive turned
read-only are its lifetime (drive writes: host bytes written over the logical capacity), given as
the mean and the range over the seeds. Then the same workload (the first seed) cut at 1/6 .. 6/6
of that lifetime gives the erase-count spread along the way (a run is deterministic, so a shorter
one is the longer one's beginning).

Writes lifetime.csv / .md / .png into --out (default: bench/).
"""
import argparse
import os
import re
import tempfile

from bench_common import ROOT, run_ssdsim, write_tables

POLICIES = ["none", "dynamic", "static"]
RATED = 3000
RBER = {"alpha": ("k", 1.71), "beta": ("m", 2.49), "gamma": ("p", 1.76)}  # the shipped law's factors and powers
RBER_FACTORS = {"alpha": 3.30e-11, "beta": 5.56e-19, "gamma": 6.26e-13}


def accelerated(scale):
    """--set arguments for wear accelerated S times (see the module's text)."""
    sets = ["reliability.errors=true", "ecc.codeword_bytes=1024", "ecc.parity_bytes=32", "ecc.correctable_bits=18",
            "ecc.retry_steps=8", "failures.grown=true", f"failures.rated_pe_cycles={RATED / scale:g}"]
    for factor, (_, power) in RBER.items():
        sets.append(f"reliability.rber_{factor}={RBER_FACTORS[factor] * scale ** power:.6g}")
    return sets


def capacity_bytes(a, ftl, path):
    """The drive's logical capacity under this FTL (a short synthetic run's addressed range)."""
    args = ["-p", a.platform, "--ftl", ftl, "--synthetic", "random", "--count", "10", "--precondition", "none"]
    m = re.search(r"range \[0, (\d+)\) B", run_ssdsim(args, path)["workload"]["description"])
    return int(m.group(1))


def run(a, ftl, policy, skew, count, path, seed=1):
    jobs = path + ".jobs.yaml"
    with open(jobs, "w") as f:
        f.write(f"jobs:\n  - name: lifetime\n    pattern: random\n    read_fraction: {a.read_fraction}\n"
                f"    block_size: 4096\n    count: {count}\n    skew: {skew}\n    seed: 1\n")
    args = ["-p", a.platform, "--ftl", ftl, "--jobs", jobs, "--set", f"failures.seed={seed}",
            "--set", f"firmware.wear_leveling={policy}", "--set", f"firmware.wear_leveling_spread={a.spread}"]
    for s in accelerated(a.scale) + a.set:
        args += ["--set", s]
    return run_ssdsim(args, path)


def plot(series, rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ftls = list(dict.fromkeys(r["FTL"] for r in rows))
    skews = list(dict.fromkeys(r["workload"] for r in rows))
    fig, axes = plt.subplots(len(skews), len(ftls), figsize=(5.2 * len(ftls), 4.2 * len(skews)), squeeze=False)
    for (i, skew), (j, ftl) in ((a, b) for a in enumerate(skews) for b in enumerate(ftls)):
        ax = axes[i][j]
        for policy in POLICIES:
            pts = series.get((skew, ftl, policy))
            if not pts:
                continue
            x = [p["drive writes"] for p in pts]
            line, = ax.plot(x, [p["mean"] for p in pts], marker="o", label=f"{policy}: mean")
            ax.fill_between(x, [p["min"] for p in pts], [p["max"] for p in pts], color=line.get_color(), alpha=0.15,
                            label=f"{policy}: min..max")
            ax.plot(x, [p["mean"] + p["stdev"] for p in pts], color=line.get_color(), linestyle=":", linewidth=1)
        ax.set_title(f"{ftl}, {skew}: erase counts until read-only")
        ax.set_xlabel("host drive writes")
        ax.set_ylabel("erase count (simulated P/E cycles)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--platform", default=os.path.join(ROOT, "platforms", "tiny.yaml"))
    ap.add_argument("--ftls", default="page_mapping,dftl,bast", help="comma-separated")
    ap.add_argument("--skews", default="uniform,hotcold:0.2:0.8", help="job-file skews, comma-separated")
    ap.add_argument("--scale", type=float, default=50, help="wear acceleration S")
    ap.add_argument("--drive-writes", type=float, default=80, help="the whole workload, in drive writes")
    ap.add_argument("--read-fraction", type=float, default=0.2)
    ap.add_argument("--spread", type=int, default=8, help="firmware.wear_leveling_spread (simulated cycles)")
    ap.add_argument("--checkpoints", type=int, default=6)
    ap.add_argument("--seeds", type=int, default=3, help="failure seeds per FTL and policy")
    ap.add_argument("--set", action="append", default=[], help="extra --set KEY=VALUE for every run")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench"))
    a = ap.parse_args()
    rows, series = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for skew, ftl, policy in ((s, f, p) for s in a.skews.split(",") for f in a.ftls.split(",") for p in POLICIES):
                capacity = capacity_bytes(a, ftl, os.path.join(tmp, "probe.json"))
                total = int(a.drive_writes * capacity / 4096 / (1 - a.read_fraction))
                runs = [run(a, ftl, policy, skew, total, os.path.join(tmp, f"{ftl}-{policy}-{seed}.json"), seed)
                        for seed in range(1, a.seeds + 1)]
                r = runs[0]
                b, h = r["bad_blocks"], r["host"]
                lifetime_writes = h["writes"]
                lives = [x["host"]["write_bytes"] / capacity for x in runs]
                died = all(x["bad_blocks"]["read_only"] for x in runs)
                spread = r["hardware"]["erase_count_spread"]
                rows.append({"workload": skew, "FTL": ftl, "wear leveling": policy,
                             "drive writes to read-only": (f"{sum(lives) / len(lives):.1f} ({min(lives):.1f}-{max(lives):.1f})"
                                                           if died else f"> {min(lives):.1f}"),
                             "read-only at s": f"{b['read_only_since_s']:.1f}" if b["read_only"] else "-",
                             "WAF": f"{r['ftl_metrics'].get('waf', 0):.2f}",
                             "program failures": b["program_failures"], "erase failures": b["erase_failures"],
                             "retired": b["retired_segments"],
                             "uncorrectable reads": r["reliability"]["uncorrectable_page_reads"],
                             "failed host reads": r["reliability"]["failed_host_reads"],
                             "erase mean": f"{spread['mean']:.1f}", "erase max": spread["max"],
                             "erase stdev": f"{spread['stdev']:.2f}"})
                print(rows[-1], flush=True)
                # The erase spread along the way: the workload cut at k/N of the lifetime.
                requests = int(lifetime_writes / (1 - a.read_fraction))
                pts = []
                for k in range(1, a.checkpoints + 1):
                    c = run(a, ftl, policy, skew, max(1000, requests * k // a.checkpoints), os.path.join(tmp, "cut.json"))
                    s = c["hardware"]["erase_count_spread"]
                    pts.append({"drive writes": c["host"]["write_bytes"] / capacity, **s})
                series[(skew, ftl, policy)] = pts
    columns = list(rows[0].keys())
    notes = ["", f"Drive writes to read-only: mean (range) over {a.seeds} failure seeds; the other columns are the "
             "first seed's run. "
             f"Wear accelerated {a.scale:g} times (rated {RATED} cycles = {RATED / a.scale:g} simulated); "
             f"{a.read_fraction:g} of the requests reads; static leveling's spread {a.spread} simulated cycles. "
             "Command: `bench/lifetime.py` (see its text for the model)."]
    write_tables(a.out, "lifetime", columns, rows, notes)
    plot(series, rows, os.path.join(a.out, "lifetime.png"))


if __name__ == "__main__":
    main()
