#!/usr/bin/python3
"""Two tenants on NVMe queues of their own: how they slow each other down, and what arbitration, die scheduling and the write buffer change (issue 36).

A latency-sensitive tenant (queue 0: 4 KiB random requests, 70% reads, Zipf-skewed, 4 outstanding)
shares platforms/default.yaml (page mapping, filled to steady state first) with a write-heavy
batch tenant (queue 1: 64 KiB random requests, 10% reads, 16 outstanding). Each configuration runs
with `--alone-runs`: each tenant replayed alone on the same drive (same seeds, same requests),
so each one's slowdown (its mean latency with the other over alone) and the fairness (smallest
slowdown over the largest) are MQSim's (Tavakkol et al., FAST'18).

The grid: the controller's command arbitration (round robin, or weighted round robin with the
latency tenant high and the batch tenant low, weights 4:1), the die queues' scheduling (fifo,
read_first, flow_priority: by the tenant's class), and the DRAM write buffer (on, as shipped, or
off). The controller holds host.controller_commands = 16 commands, fewer than the 20 the tenants
keep outstanding, so arbitration decides which tenant's commands enter the drive; two more rows
hold 4, where the fetch is the bottleneck. Writes
multi_tenant.csv/.md and multi_tenant.png into --out (default bench/).
"""
import json
import os

from bench_common import ROOT, pyplot, run_jobs, run_ssdsim, study_arguments, write_tables

ARBITRATION = {"rr": ["--set", "host.arbitration=rr"],
               "wrr 4:1": ["--set", "host.arbitration=wrr", "--set", "host.wrr_weight_high=4",
                           "--set", "host.wrr_weight_low=1"]}
SCHEDULERS = ["fifo", "read_first", "flow_priority"]
BUFFERS = {"on": [], "off": ["--set", "firmware.write_buffer=off"]}

TENANTS = """# bench/multi_tenant.py's two tenants (see its docstring)
jobs:
  - name: latency
    pattern: random
    read_fraction: 0.7
    block_size: 4096
    count: {latency_count}
    skew: zipf:0.9
    range_bytes: 34359738368
    seed: 21
    iodepth: 4
    queue: 0
    priority: high
  - name: batch
    pattern: random
    read_fraction: 0.1
    block_size: 65536
    count: {batch_count}
    range_start: 34359738368
    range_bytes: 34359738368
    seed: 22
    iodepth: 16
    queue: 1
    priority: low
"""


def one(a, arbitration, scheduler, buffer, held=16):
    name = f"{arbitration.replace(' ', '').replace(':', '-')}-{scheduler}-{buffer}" + ("" if held == 16 else f"-held{held}")
    args = ["-p", os.path.join(ROOT, "platforms", "default.yaml"), "--jobs", a.tenants, "--alone-runs",
            "--precondition", a.precondition, "--set", f"host.controller_commands={held}",
            "--set", f"channel.scheduler={scheduler}", *ARBITRATION[arbitration], *BUFFERS[buffer]]
    report = os.path.join(a.work, name + ".json")
    if a.reuse and os.path.exists(report):
        with open(report) as f:
            r = json.load(f)
    else:
        r = run_ssdsim(args, report)
    flows = r["host"]["flows"]
    row = {"arbitration": arbitration, "controller holds": held, "die scheduler": scheduler, "write buffer": buffer}
    for f, label in zip(flows, ["latency", "batch"]):
        row[f"{label} IOPS"] = round(f["iops"])
        row[f"{label} mean us"] = round(f["latency_us"]["mean"], 1)
        row[f"{label} p99 us"] = round(f["latency_us"]["p99"], 1)
        row[f"{label} alone us"] = round(f["alone_mean_latency_us"], 1)
        row[f"{label} slowdown"] = round(f["slowdown"], 3)
    row["fairness"] = round(r["host"]["fairness"], 3)
    row["WAF"] = round(r["ftl_metrics"]["waf"], 3) if r["ftl_metrics"]["waf"] is not None else None
    return row


def plot(a, rows):
    plt = pyplot()
    if plt is None:
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, buffer in zip(axes, BUFFERS):
        subset = [r for r in rows if r["write buffer"] == buffer and r["controller holds"] == 16]
        labels = [f"{r['arbitration']}\n{r['die scheduler']}" for r in subset]
        x = range(len(subset))
        ax.bar([i - 0.2 for i in x], [r["latency slowdown"] for r in subset], 0.4, label="latency tenant")
        ax.bar([i + 0.2 for i in x], [r["batch slowdown"] for r in subset], 0.4, label="batch tenant")
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_title(f"write buffer {buffer}")
        ax.axhline(1.0, color="grey", linewidth=0.5)
    axes[0].set_ylabel("slowdown (mean latency shared / alone)")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "multi_tenant.png"), dpi=110)


def main():
    def options(p):
        p.add_argument("--latency-count", type=int, default=40000, help="the latency tenant's requests")
        p.add_argument("--batch-count", type=int, default=8000, help="the batch tenant's requests")
        p.add_argument("--precondition", default="fill+steady")
        p.add_argument("--reuse", action="store_true", help="take the reports results/multi_tenant holds already")
    a = study_arguments(__doc__, ["page_mapping"], "multi_tenant", options)
    a.tenants = os.path.join(a.work, "tenants.yaml")
    with open(a.tenants, "w") as f:
        f.write(TENANTS.format(latency_count=a.latency_count, batch_count=a.batch_count))
    jobs = [(arb, s, b) for b in BUFFERS for arb in ARBITRATION for s in SCHEDULERS]
    # Arbitration decides only what waits to be fetched: with the controller holding 4 commands the
    # tenants' 20 outstanding queue there, and the classes' weights show.
    jobs += [(arb, "fifo", "on", 4) for arb in ARBITRATION]
    rows = run_jobs(a, one, jobs)
    notes = ["", f"`bench/multi_tenant.py` ({a.latency_count} latency-tenant and {a.batch_count} batch-tenant requests, "
             f"--precondition {a.precondition}): each row one `ssdsim run -p platforms/default.yaml --jobs "
             "results/multi_tenant/tenants.yaml --alone-runs --set host.controller_commands=HOLDS ...`. `alone us`: the "
             "tenant's mean latency alone on the same drive; `slowdown`: mean latency with the other over alone; "
             "`fairness`: the smaller slowdown over the larger."]
    write_tables(a.out, "multi_tenant", list(rows[0].keys()), rows, notes)
    plot(a, rows)


if __name__ == "__main__":
    main()
