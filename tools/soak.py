#!/usr/bin/python3
"""Randomized soak: random workloads for every FTL on every shipped platform, each run checked.

A case is a random fio-style job file (workloads/*.yaml's format, platforms/config/job_file.h):
one to three jobs, random or sequential, read shares from 0 to 1, request sizes from 512 B to
4 MiB (the host splits them at the drive's MDTS), uniform, Zipf or hot/cold skew, closed
loop at a queue depth or open loop at a rate with Poisson (bursty) arrivals. Each case runs with
`ssdsim run` after a sequential fill, under a wall-clock budget and the simulator's own liveness
guard (--stall-seconds), and is checked for:
- ending: exit 0 within the budget (a hang or a crash fails);
- integrity: ssdsim's read-after-write oracle and end-of-run mapping check (exit 1 otherwise);
- progress: host pages (the platform's page size) moved per second of the timed simulation (one
  core) above a floor, once the simulation has run for a quarter of the budget (the slow paths
  issue 32 saw: 100k single-page requests in 90-120 s are 800-1,100 a second);
- report invariants (ssdsim checks them before writing the report; a violation is an error).
A failing case is written to the regressions folder (its job file and command), where
`soak.py --replay DIR` runs every kept case again (the test suite does).

    tools/soak.py --cases 3 --budget 20          # every FTL x every platform, 3 cases each
    tools/soak.py --ftls bast,dftl --platforms tiny --cases 20
    tools/soak.py --replay tests/data/soak        # the kept regressions

Prints one line a run and a summary; exits 1 when any run failed.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDSIM = os.environ.get("SSDSIM", os.path.join(ROOT, "build", "platforms", "ssdsim"))
SIZES = [512, 4096, 8192, 16384, 65536, 262144, 1048576, 4194304]


def ssdsim(*args, timeout=None):
    return subprocess.run([SSDSIM, *args], capture_output=True, text=True, timeout=timeout)


def list_ftls():
    out = ssdsim("ftls").stdout.splitlines()
    return [line.split()[0] for line in out if line and not line.startswith(" ")]


def queue_depth(platform):
    """The platform's NVMe queue (host.queue_depth, from `ssdsim validate`): the jobs' iodepths fit it."""
    for line in ssdsim("validate", platform).stdout.splitlines():
        if line.strip().startswith("host.queue_depth = "):
            return int(line.split(" = ", 1)[1])
    sys.exit(f"ssdsim validate {platform} names no host.queue_depth")


def random_jobs(rng, queue, requests):
    """A random job file's text (YAML) of about `requests` requests."""
    open_loop = rng.random() < 0.5
    jobs = []
    n = rng.randint(1, 3)
    depths = [d for d in (1, 4, 16, 64) if d * n <= queue]
    for j in range(n):
        # Up to 4 MiB on every platform: the host splits what exceeds the drive's MDTS.
        sizes = rng.sample(SIZES, rng.randint(1, 3))
        weights = [round(rng.uniform(0.1, 1.0), 2) for _ in sizes]
        skew = rng.choice(["uniform", f"zipf:{rng.choice([0.6, 0.8, 0.9, 0.99])}",
                           f"hotcold:{rng.choice([0.05, 0.1, 0.2])}:{rng.choice([0.8, 0.9, 0.95])}"])
        job = {"name": f"job{j}", "pattern": rng.choice(["random", "random", "sequential"]),
               "read_fraction": round(rng.choice([0.0, 0.3, 0.5, 0.7, 1.0, rng.random()]), 2),
               "block_size": [[s, w] for s, w in zip(sizes, weights)],
               "count": max(1, requests // n), "skew": skew, "seed": rng.randint(1, 1 << 30)}
        if open_loop:
            job["rate_iops"] = rng.choice([200, 2000, 20000, 200000])
            job["arrivals"] = "poisson"
        else:
            job["iodepth"] = rng.choice(depths)
        jobs.append(job)
    return "jobs:\n" + "".join("  - " + json.dumps(j) + "\n" for j in jobs)


def run_case(platform, ftl, jobs_path, budget, floor):
    """One run: (ok, what, requests per CPU-second, wall seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        args = ["run", "-p", platform, "--ftl", ftl, "--jobs", jobs_path, "--precondition", "fill", "--no-vcd", "-q",
                "-r", report, "--stall-seconds", str(max(5, budget))]
        start = time.monotonic()
        try:
            done = ssdsim(*args, timeout=2 * budget + 30)
        except subprocess.TimeoutExpired:
            return False, f"no end within {2 * budget + 30} s", 0.0, time.monotonic() - start
        wall = time.monotonic() - start
        if done.returncode != 0:
            return False, f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}", \
                0.0, wall
        with open(report) as f:
            r = json.load(f)
        # The pace of the simulation itself (set-up and the fill are the preconditioner's, not the
        # model's): pages per second of the timed run, one core.
        # Counted in flash pages the host moved, so that 4 MiB requests and 4 KiB ones are judged alike.
        simulated = r["simulation"]["wall_seconds"]
        page_bytes = r["platform"]["effective"]["geometry.page_bytes"]
        pages = (r["host"]["read_bytes"] + r["host"]["write_bytes"]) / page_bytes
        rate = pages / max(simulated, 1e-9)
        if r["integrity"]["mismatches"] != 0:
            return False, "integrity mismatches", rate, wall
        if simulated > budget / 4 and rate < floor:
            return False, f"{rate:.0f} host pages per second of simulation, below the floor of {floor}", rate, wall
        return True, "ok", rate, wall


def keep(regressions, platform, ftl, text, what):
    os.makedirs(regressions, exist_ok=True)
    stem = f"{os.path.splitext(os.path.basename(platform))[0]}-{ftl}-{zlib.crc32(text.encode()):08x}"
    with open(os.path.join(regressions, stem + ".yaml"), "w") as f:
        f.write(f"# soak failure: {what}\n# platform: {os.path.relpath(platform, ROOT)}\n# ftl: {ftl}\n{text}")
    return stem


def replay(folder, budget, floor):
    failures = 0
    cases = sorted(f for f in os.listdir(folder) if f.endswith(".yaml")) if os.path.isdir(folder) else []
    for name in cases:
        path = os.path.join(folder, name)
        head = dict(line[2:].split(": ", 1) for line in open(path) if line.startswith("# ") and ": " in line[2:])
        ok, what, rate, wall = run_case(os.path.join(ROOT, head["platform"].strip()), head["ftl"].strip(), path, budget,
                                        floor)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {what} ({rate:.0f} pages/s simulated, {wall:.1f} s)")
        failures += not ok
    print(f"{len(cases) - failures} passed, {failures} failed")
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", type=int, default=2, help="random cases per FTL and platform")
    p.add_argument("--requests", type=int, default=3000, help="requests a case (about)")
    p.add_argument("--budget", type=float, default=30, help="wall seconds a run should take at most")
    p.add_argument("--floor", type=float, default=1500,
                   help="host pages per second of simulation below which a run longer than a quarter of the budget "
                        "fails")
    p.add_argument("--ftls", default="", help="comma-separated (default: every FTL)")
    p.add_argument("--platforms", default="", help="comma-separated names under platforms/ (default: every one)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--regressions", default=os.path.join(ROOT, "tests", "data", "soak"),
                   help="where failing cases are kept")
    p.add_argument("--replay", metavar="DIR", help="run the kept cases in DIR instead of random ones")
    a = p.parse_args()
    if a.replay:
        sys.exit(1 if replay(a.replay, a.budget, a.floor) else 0)
    ftls = a.ftls.split(",") if a.ftls else list_ftls()
    names = a.platforms.split(",") if a.platforms else sorted(
        f[:-5] for f in os.listdir(os.path.join(ROOT, "platforms")) if f.endswith(".yaml"))
    rng = random.Random(a.seed)
    runs = failures = 0
    rates = []
    for name in names:
        platform = os.path.join(ROOT, "platforms", name + ".yaml")
        queue = queue_depth(platform)
        for ftl in ftls:
            for _ in range(a.cases):
                text = random_jobs(rng, queue, a.requests)
                with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
                    f.write(text)
                ok, what, rate, wall = run_case(platform, ftl, f.name, a.budget, a.floor)
                os.unlink(f.name)
                runs += 1
                rates.append(rate)
                line = f"{'ok  ' if ok else 'FAIL'} {name} {ftl}: {what} ({rate:.0f} pages/s simulated, {wall:.1f} s)"
                if not ok:
                    failures += 1
                    line += f", kept as {keep(a.regressions, platform, ftl, text, what)}"
                print(line, flush=True)
    rates.sort()
    print(f"{runs - failures} passed, {failures} failed")
    if rates:
        print(f"host pages per second of simulation: min {rates[0]:.0f}, median {rates[len(rates) // 2]:.0f}, "
              f"max {rates[-1]:.0f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
