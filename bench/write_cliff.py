#!/usr/bin/python3
"""The write cliff of the consumer TLC and QLC platforms' SLC caches (issue 37): sustained
sequential and random writes on an empty, a half-full and a full drive, throughput against the
data written, the fold traffic, and the cache's recovery after idle time.

Each run replays one generated DiskSim trace, open loop, on platforms/tlc_consumer_256g.yaml or
platforms/qlc_consumer_512g.yaml (their dynamic SLC caches: fw/ftl/common/slc_cache.h):
  half-full only: the first half of the logical space written sequentially, then idle for 300 s
    more than those writes take at a pessimistic rate (the cache folds); empty and full start from
    --precondition none and fill (laid out natively);
  the measured writes: --amount-factor x the empty drive's cache in 128 KiB sequential writes
    (empty and half: into unwritten space; full: over the data) or 16 KiB random writes over the
    whole logical space; requests 1 us apart, far more than the drive takes, so the host keeps
    its queue (QD 64) full: a closed loop in effect;
  idle (300 s more than the measured writes take at a pessimistic rate), then the recovery burst:
    8 GiB of 128 KiB sequential writes. (The gaps are trace time: the writes before them arrive
    far faster than the drive takes them, so the drive's own idle time is the gap less the time it
    still worked through them: column "idle s".)
Throughput over time comes from the report's host.over_time; the cliff is where it falls below
half the first interval's; the recovery burst's rate is its bytes over the time from its arrival
to the host's last completion. Writes write_cliff.csv/.md and write_cliff.png into --out (default
bench/), the runs' reports into results/write_cliff.
"""
import gzip
import json
import os

from bench_common import ROOT, pyplot, run_jobs, run_ssdsim, study_arguments, write_tables

PLATFORMS = {"tlc": "tlc_consumer_256g.yaml", "qlc": "qlc_consumer_512g.yaml"}
STATES = ("empty", "half", "full")
PATTERNS = ("sequential", "random")
SECTOR = 512
SEQ_BYTES, RANDOM_BYTES = 128 * 1024, 16 * 1024
IDLE_MS = 300_000.0
# Pessimistic sustained rates (bytes/s) for the gaps after a phase: no phase may run into the next.
FLOOR_RATE = {"tlc": 150e6, "qlc": 80e6}
RECOVERY_BYTES = 8 << 30


def geometry(platform):
    """(planes, blocks a plane, pages a block, page bytes, bits a cell, GC threshold, SLC floor,
    free share, logical bytes) from the platform file (its slc_blocks default: blocks / 64)."""
    import yaml  # Debian's python3-yaml
    with open(os.path.join(ROOT, "platforms", PLATFORMS[platform])) as f:
        p = yaml.safe_load(f)
    g, ftl = p["geometry"], p["ftl"]
    pm = ftl["page_mapping"]
    planes = g["channels"] * g["ways"] * g.get("dies_per_way", 1) * g["planes_per_die"]
    bits = len(p["nand"]["t_prog_us"])
    blocks = g["blocks_per_plane"]
    logical = int(planes * blocks * g["pages_per_block"] * (1 - ftl["overprovisioning"])) * g["page_bytes"]
    return dict(planes=planes, blocks=blocks, ppb=g["pages_per_block"], page=g["page_bytes"], bits=bits,
                threshold=pm["gc_threshold_blocks"], floor=pm.get("slc_blocks", max(1, blocks // 64)),
                share=pm.get("slc_free_share", 0.5), logical=logical)


def empty_cache_bytes(g):
    """The dynamic cache of an empty plane in closed form: the k-th SLC block opens while
    (k - 1) - floor < share x (blocks - (k - 1) - threshold) (slc_cache.h), so k - 1 < X =
    (share (blocks - threshold) + floor) / (1 + share): ceil(X) blocks... counted from 0: the
    largest k with k - 1 < X."""
    x = (g["share"] * (g["blocks"] - g["threshold"]) + g["floor"]) / (1 + g["share"])
    k = int(x) + 1 if x != int(x) else int(x)
    return g["planes"] * k * (g["ppb"] // g["bits"]) * g["page"], k


def write_trace(path, g, platform, state, pattern, amount, seed=7):
    """The run's trace (path None: none written); returns the measured phase's and the recovery's
    start times (s)."""
    import random
    rng = random.Random(seed)
    t = 0.0  # ms
    lines = []
    half = g["logical"] // 2 // SEQ_BYTES * SEQ_BYTES

    def sequential(start, nbytes):
        nonlocal t
        for off in range(start, start + nbytes, SEQ_BYTES):
            lines.append(f"{t:.3f} 0 {off // SECTOR} {SEQ_BYTES // SECTOR} 0\n")
            t += 0.001

    def idle_after(nbytes, slowdown=1.0):
        nonlocal t
        t += IDLE_MS + 1e3 * nbytes / FLOOR_RATE[platform] * slowdown

    if state == "half":
        sequential(0, half)
        idle_after(half)
    measured_at = t / 1e3
    if pattern == "sequential":
        start = half if state == "half" else 0
        sequential(start, min(amount, g["logical"] - start) // SEQ_BYTES * SEQ_BYTES)
    else:
        slots = g["logical"] // RANDOM_BYTES
        for _ in range(amount // RANDOM_BYTES):
            lines.append(f"{t:.3f} 0 {rng.randrange(slots) * (RANDOM_BYTES // SECTOR)} {RANDOM_BYTES // SECTOR} 0\n")
            t += 0.001
    idle_after(amount, 4.0 if pattern == "random" and state == "full" else 1.0)  # GC's copies
    recovery_at = t / 1e3
    sequential(0, RECOVERY_BYTES)
    if path:
        with gzip.open(path, "wt", compresslevel=1) as f:
            f.writelines(lines)
    return measured_at, recovery_at


def phase_rates(report, start_s, end_s):
    """MB/s over the host's intervals in [start_s, end_s): (points as (GB written since start, MB/s),
    mean MB/s over the phase's busy intervals, the first interval's MB/s)."""
    o = report["host"]["over_time"]
    dt = o["interval_s"]
    pts, written = [], 0.0
    for p in o["points"]:
        if p["start_s"] < start_s - 1e-9 or p["start_s"] + dt > end_s + 1e-9:  # whole intervals only
            continue
        pts.append((written / 1e3, p["mb_per_s"]))
        written += p["mb_per_s"] * dt
    busy = [mb for _, mb in pts if mb > 0]
    return pts, (sum(busy) / len(busy) if busy else 0.0), (pts[0][1] if pts else 0.0)


def cliff(points, first):
    """GB written when throughput first falls below half the first interval's (None: never)."""
    for i, (gb, mb) in enumerate(points):
        if 0 < mb < first / 2 and all(0 < m < first / 2 for _, m in points[i:i + 3] if m > 0):
            return gb
    return None


def one(a, platform, state, pattern):
    g = geometry(platform)
    cache, _ = empty_cache_bytes(g)
    amount = int(a.amount_factor * cache)
    trace = os.path.join(a.work, f"{platform}-{state}-{pattern}.trace.gz")
    report = os.path.join(a.work, f"{platform}-{state}-{pattern}.json")
    reuse = a.reuse and os.path.exists(report)
    measured_at, recovery_at = write_trace(None if reuse else trace, g, platform, state, pattern, amount)
    if reuse:
        with open(report) as f:
            r = json.load(f)
    else:
        args = ["-p", os.path.join(ROOT, "platforms", PLATFORMS[platform]), "--trace", trace, "--trace-format",
                "disksim", "--precondition", "fill" if state == "full" else "none"]
        r = run_ssdsim(args, report)
        os.remove(trace)
    f = r["ftl_metrics"]
    pts, mean, first = phase_rates(r, measured_at, recovery_at)
    # The burst is the run's last phase: its rate is its bytes over the time from its arrival to
    # the host's last completion (host.simulated_seconds), exact where the intervals are coarse.
    recovery = RECOVERY_BYTES / 1e6 / (r["host"]["simulated_seconds"] - recovery_at)
    at = cliff(pts, first)
    dt = r["host"]["over_time"]["interval_s"]
    busy_until = max([p["start_s"] + dt for p in r["host"]["over_time"]["points"]
                      if p["mb_per_s"] > 0 and p["start_s"] + dt <= recovery_at] or [measured_at])
    return {"platform": platform, "state": state, "pattern": pattern, "written GB": round(amount / 1e9, 1),
            "first MB/s": round(first), "cliff at GB": None if at is None else round(at, 1),
            "mean MB/s": round(mean), "idle s": round(recovery_at - busy_until),
            # no idle before the burst (the measured writes ran into it): no recovery to speak of
            "after idle MB/s": round(recovery) if recovery_at - busy_until >= 1 else None, "interval s": dt,
            "SLC GB": round(f["slc_pages_written"] * g["page"] / 1e9, 1),
            "SLC blocks": f["slc_blocks_opened"], "folded": f["slc_blocks_folded"],
            "fold GB": round(f["slc_fold_copies"] * g["page"] / 1e9, 1),
            "idle folds": f["slc_idle_folds"], "fg folds": f["slc_foreground_folds"],
            "GC copies (not folds) GB": round((f["gc_copies"] - f["slc_fold_copies"]) * g["page"] / 1e9, 1),
            "WAF": round(f["waf"], 3), "mean lat ms": round(r["host"]["latency_us"]["mean"] / 1e3, 1),
            "_points": pts}


def plot(rows, path):
    plt = pyplot()
    if plt is None:
        return
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharey="row")
    for i, platform in enumerate(PLATFORMS):
        for j, pattern in enumerate(PATTERNS):
            ax = axes[i][j]
            for r in rows:
                if r["platform"] == platform and r["pattern"] == pattern:
                    xs = [p[0] for p in r["_points"]]
                    ax.plot(xs, [p[1] for p in r["_points"]], linewidth=0.8, label=r["state"])
            ax.set_title(f"{platform}, {pattern} writes", fontsize=9)
            ax.set_xlabel("GB written in the phase")
            ax.set_ylabel("MB/s")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle("write cliff: the SLC cache fills, then native TLC/QLC speed (or folding)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    def more(p):
        p.add_argument("--amount-factor", type=float, default=1.5,
                       help="the measured writes, as a multiple of the empty drive's SLC cache")
        p.add_argument("--platforms", default=",".join(PLATFORMS))
        p.add_argument("--reuse", action="store_true", help="take the reports already in results/write_cliff")
        p.add_argument("--skip", default="", help="runs left out, e.g. qlc-full-random (comma-separated)")
    a = study_arguments(__doc__, [], "write_cliff", more)
    skip = set(a.skip.split(",")) - {""}
    jobs = [(p, s, pat) for p in a.platforms.split(",") for s in STATES for pat in PATTERNS
            if f"{p}-{s}-{pat}" not in skip]
    rows = run_jobs(a, one, jobs)
    notes = [""]
    for p in a.platforms.split(","):
        g = geometry(p)
        cache, k = empty_cache_bytes(g)
        notes.append(f"{p}: the empty drive's cache in closed form: {k} SLC blocks a plane x {g['planes']} planes x "
                     f"{g['ppb'] // g['bits']} pages of {g['page'] // 1024} KiB = {cache / 1e9:.1f} GB.")
    if skip:
        notes.append("Left out of this table (--skip): " + ", ".join(sorted(skip)) + ".")
    notes.append("`bench/write_cliff.py`: the trace phases and the columns are described at the top of the script.")
    columns = [c for c in rows[0] if not c.startswith("_")]
    write_tables(a.out, "write_cliff", columns, [{c: r[c] for c in columns} for r in rows], notes)
    plot(rows, os.path.join(a.out, "write_cliff.png"))


if __name__ == "__main__":
    main()
