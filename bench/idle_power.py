#!/usr/bin/python3
"""What the idle power states buy and cost on real traces: energy, mean power and latency with NVMe APST and PCIe ASPM off and on (issue 37).

Each trace is replayed open loop at its own timestamps on platforms/default.yaml (filled first),
four ways: both off (as shipped), power.aspm only (the link's L1 after 32 us idle, L1.2 after
100 us more), power.apst only (PS1 70 mW after 70.5 ms idle, PS2 10 mW after 500 ms more: a
Samsung 970 EVO Plus's PS3/PS4 with Linux's timers), and both. Idle gaps in a trace put the drive
to sleep; the next command waits for the deepest state's exit latency (energy.states.wake_wait_us).
Traces: the bundled MSR hm_0 (the demo's) and, from ../shared/traces, MSR rsrch_1 and wdev_1 (a
week each, one volume, nearly all writes) and the blkparse YCSB-on-ext4 trace (bursty). Writes
idle_power.csv/.md and idle_power.png into --out (default bench/).
"""
import os

from bench_common import ROOT, TRACES_DIR, pyplot, run_jobs, run_ssdsim, study_arguments, write_tables

TRACES = {"hm_0": os.path.join(ROOT, "workloads", "traces", "hm_0.csv"),
          "rsrch_1": os.path.join(TRACES_DIR, "msr", "rsrch_1.csv"),
          "wdev_1": os.path.join(TRACES_DIR, "msr", "wdev_1.csv"),
          "ycsb-ext4": os.path.join(TRACES_DIR, "blkparse", "ycsb-ext4.txt")}
STATES = {"off": [], "aspm": ["--set", "power.aspm=true"], "apst": ["--set", "power.apst=true"],
          "apst+aspm": ["--set", "power.apst=true", "--set", "power.aspm=true"]}


def one(a, trace, states):
    args = ["-p", os.path.join(ROOT, "platforms", "default.yaml"), "--trace", TRACES[trace], "--fold", "--precondition", "fill",
            *STATES[states]]
    if trace == "ycsb-ext4":
        args.append("--skip-bad-lines")
    r = run_ssdsim(args, os.path.join(a.work, f"{trace}-{states}.json"))
    e, h, st = r["energy"], r["host"], r["energy"]["states"]
    seconds = r["hardware"]["simulated_seconds"]
    wakes = sum(v for k, v in st.items() if k.endswith("_entries") and k.startswith("ps"))
    return {"trace": trace, "idle states": states, "requests": h["requests"], "span s": round(seconds, 1),
            "mean us": round(h["latency_us"]["mean"], 1), "p99 us": round(h["latency_us"]["p99"], 1),
            "energy J": round(e["total_j"], 2), "mean W": round(e["average_w"], 3),
            "mJ a request": round(1e3 * e["per_request_j"], 2),
            "PS0 share": round(st["ps0_s"] / seconds, 3) if seconds > 0 else None,
            "PS1/PS2 entries": wakes, "L1.2 entries": st.get("link_l1_2_entries", 0),
            "wake wait ms": round(st.get("wake_wait_us", 0) / 1e3, 1),
            "flash J": round(e["flash_j"], 3), "link J": round(e["components_j"]["host_link"], 2)}


def plot(rows, path):
    plt = pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for trace in TRACES:
        pts = [r for r in rows if r["trace"] == trace]
        ax.plot([r["mean W"] for r in pts], [r["mean us"] for r in pts], marker="o", label=trace)
        for r in pts:
            ax.annotate(r["idle states"], (r["mean W"], r["mean us"]), fontsize=6, textcoords="offset points",
                        xytext=(3, 3))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("mean power (W)")
    ax.set_ylabel("mean latency (us)")
    ax.set_title("idle power states: power against latency, default platform", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    a = study_arguments(__doc__, [], "idle_power")
    rows = run_jobs(a, one, [(t, s) for t in TRACES for s in STATES])
    notes = ["", "`bench/idle_power.py`: `ssdsim run -p platforms/default.yaml --trace TRACE --fold --precondition fill` "
             "with `--set power.aspm=true` and/or `--set power.apst=true`. `PS0 share`: of the simulated time; "
             "`wake wait ms`: what commands waited for exits in all."]
    write_tables(a.out, "idle_power", list(rows[0].keys()), rows, notes)
    plot(rows, os.path.join(a.out, "idle_power.png"))


if __name__ == "__main__":
    main()
