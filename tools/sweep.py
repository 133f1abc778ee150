#!/usr/bin/python3
"""Runs a design-space sweep: one `ssdsim run` per point of a grid, in parallel on Dask.

Usage: tools/sweep.py SPEC.yaml --out DIR [--workers N | --scheduler tcp://HOST:PORT] [--dry-run]

The spec (YAML):

  platform: platforms/tiny.yaml        # base platform file
  ftl: page_mapping                    # optional (--ftl)
  workload: {synthetic: random, read-fraction: 0.3, count: 20000, qd: 16, precondition: fill}
                                       # any `ssdsim run` options, without dashes; true = a flag
  set: {channel.rate_mts: 400}         # optional fixed --set overrides
  grid:                                # cross product of these lists
    geometry.channels: [1, 2]
    geometry.ways: [1, 2]
  zip:                                 # optional: groups varied together, one axis each
    - {geometry.planes_per_die: [1, 2], geometry.blocks_per_plane: [64, 32]}
  workloads:                           # optional: named workloads, one axis (column workload_name),
    rand-read: {synthetic: random, read-fraction: 1}   # each added to `workload`
    seq-read: {synthetic: sequential, read-fraction: 1, request-bytes: 131072}
  seeds: [1, 2, 3]                     # optional: every point once per seed (or repetitions: N,
                                       # seeds from workload.seed, default 1)
  preserve_capacity: true              # optional: geometry.blocks_per_plane follows the other
                                       # geometry so the raw capacity stays the base platform's
  timeout_s: 600                       # optional: a point running longer is recorded as failed
  columns: {cmt_read_misses: ftl_metrics/cmt_read_misses}
                                       # optional: more results columns, name -> path in the report
                                       # (a number indexes a list: host/flows/0/slowdown)

A grid (or zip) key is `platform` (a list of platform files; its column is platform_file, as
`platform` holds each run's effective name), `ftl` or `ftl.name`, an `ssdsim run`
option (qd, trace, read-fraction, request-bytes, precondition, ...) or else a platform parameter
given to --set (anything `ssdsim params` lists, or its unique last name, or ftl.<parameter>).
Relative paths (platform, trace, jobs) are looked up in the spec file's folder, then the current
directory, then the project folder.

Outputs: DIR/points/<point>/report.json and summary.txt (or error.txt), DIR/sweep.json (the spec
and every point's command line) and DIR/results.csv: one row per point with every swept value as
its own column, the effective platform name, throughput, IOPS, latency mean/p50/p99/p99.9 per
operation, WAF, erases, the busy share of every resource class, the bottleneck, energy and power
(total, per request, per GB, mean and peak watts), simulated, wall
and CPU seconds, exit status and error. Failed points are recorded with their error; rerunning the
same command resumes, skipping every point whose report exists and reads whole (a point is
identified by its command line and its platform file's text: an edited platform runs again, a
rebuilt ssdsim does not, so give a rebuilt simulator a new DIR). Exit status: 0 when every point
ran, 1 when some failed (or, with --dry-run, cannot run), 2 for a bad spec, 130 when interrupted.

Parallelism: a Dask LocalCluster with --workers processes (default: the machine's cores), or an
existing Dask cluster with --scheduler. To spread a sweep over machines, start a scheduler and
workers (Debian's python3-distributed):
    dask-scheduler                                       # on one machine: prints tcp://HOST:8786
    dask-worker tcp://HOST:8786 --nworkers 8 --nthreads 1   # on every machine
then `tools/sweep.py SPEC --out DIR --scheduler tcp://HOST:8786`. Each worker runs ssdsim at the
path the client gives (--ssdsim, default build/platforms/ssdsim of this project) and reads the
traces at the spec's paths, so every machine needs the same build and traces at the same paths
(a shared file system, or the same checkout everywhere); platform files travel with the tasks
and reports come back to the client, so only the client writes DIR.
"""
import argparse
import concurrent.futures
import json
import logging
import os
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ssdsweep import results, runner  # noqa: E402
from ssdsweep.spec import (PROJECT, Point, Spec, SpecError, effective_parameters,  # noqa: E402
                           format_value, preserved_blocks_per_plane, run_options)


def default_ssdsim():
    return os.environ.get("SSDSIM") or os.path.join(PROJECT, "build", "platforms", "ssdsim")


def validate(ssdsim, point):
    """`ssdsim validate` for the point's platform: (effective parameters, error text)."""
    command = [ssdsim, "validate", point.platform]
    for key, value in point.sets:
        command += ["--set", f"{key}={format_value(value)}"]
    if point.ftl:
        command += ["--set", f"ftl.name={point.ftl}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None, (done.stderr.strip() or done.stdout.strip() or f"validate exit status {done.returncode}")
    return effective_parameters(done.stdout), ""


def prepare(spec, ssdsim, check):
    """The points, capacity-preserving blocks per plane set. With `check` (or preserve_capacity,
    which needs each point's geometry) every point's platform is validated first, in parallel;
    otherwise a bad value fails its run, recorded the same way. Returns [(point, error)], error
    non-empty for a point that cannot run."""
    points = list(spec.points())
    if not (check or spec.preserve_capacity):
        return [(point, "") for point in points]
    base = None
    if spec.preserve_capacity:
        base_point = Point({}, spec.resolve(spec.doc["platform"], "platform"), list(spec.fixed_sets.items()), None, [])
        base, error = validate(ssdsim, base_point)
        if base is None:
            raise SpecError(f"{spec.path}: the base platform does not validate: {error}")

    def checked(point):
        params, error = validate(ssdsim, point)
        if params is not None and base is not None:
            try:
                blocks = preserved_blocks_per_plane(base, params)
                point.sets.append(("geometry.blocks_per_plane", blocks))
                point.values["geometry.blocks_per_plane"] = blocks
                params, error = validate(ssdsim, point)
            except ValueError as e:
                error = f"preserve_capacity: {e}"
        return point, error

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # each check is a process
        return list(pool.map(checked, points))


class Progress:
    """Points done, failed and the time left, on stderr (tqdm when it is a terminal)."""

    def __init__(self, total, already, enabled):
        self.total, self.done, self.failed = total, already, 0
        self.start, self.enabled = time.monotonic(), enabled
        self.bar = None
        if enabled:
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=already, unit="point", dynamic_ncols=True, file=sys.stderr)
            self.bar.set_postfix(failed=0)

    def step(self, ok):
        self.done += 1
        self.failed += 0 if ok else 1
        if self.bar:
            self.bar.set_postfix(failed=self.failed)
            self.bar.update(1)

    def close(self):
        if self.bar:
            self.bar.close()


def start_cluster(args):
    from distributed import Client, LocalCluster
    import cloudpickle
    # Workers need not import tools/ssdsweep: the task travels by value (distributed checks the
    # function's own module against this registry, so the module itself is registered).
    cloudpickle.register_pickle_by_value(runner)
    logging.getLogger("distributed").setLevel(logging.ERROR)
    if args.scheduler:
        try:
            client = Client(args.scheduler, timeout=args.connect_timeout)
        except OSError as e:
            raise SpecError(f"cannot reach the Dask scheduler at {args.scheduler}: {e}")
        workers = len(client.scheduler_info()["workers"])
        if workers == 0:
            print(f"sweep: no worker has joined {args.scheduler} yet; the points wait for one "
                  "(dask-worker tcp://HOST:PORT)", file=sys.stderr)
        return client, None, {"scheduler": args.scheduler, "workers": workers}
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR)
    client = Client(cluster)
    return client, cluster, {"scheduler": "LocalCluster", "workers": len(client.scheduler_info()["workers"])}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", help="sweep specification (YAML)")
    p.add_argument("--out", required=True, help="folder for the points' reports and results.csv")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="LocalCluster worker processes (default: the machine's cores)")
    p.add_argument("--scheduler", help="address of an existing Dask scheduler (tcp://HOST:PORT) instead")
    p.add_argument("--connect-timeout", type=float, default=20, help="seconds to wait for --scheduler (default 20)")
    p.add_argument("--ssdsim", default=default_ssdsim(), help="ssdsim executable (default: $SSDSIM or this "
                   "project's build/platforms/ssdsim)")
    p.add_argument("--dry-run", action="store_true", help="list the points and their command lines, check each "
                   "point's platform (ssdsim validate), run nothing")
    p.add_argument("--progress", choices=["auto", "always", "never"], default="auto",
                   help="progress bar on stderr (auto: when stderr is a terminal)")
    args = p.parse_args()
    if args.workers < 1:
        p.error("--workers must be at least 1")
    ssdsim = os.path.abspath(args.ssdsim)
    if not os.access(ssdsim, os.X_OK):
        sys.exit(f"sweep: cannot run ssdsim at '{ssdsim}' (build it, or give --ssdsim / $SSDSIM)")

    try:
        help_text = subprocess.run([ssdsim, "run", "--help"], capture_output=True, text=True, check=True).stdout
        spec = Spec(args.spec, run_options(help_text))
        prepared = prepare(spec, ssdsim, check=args.dry_run)
        idents = [point.ident() for point, _ in prepared]
    except SpecError as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"sweep: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sweep: interrupted before any point ran", file=sys.stderr)
        return 130
    if len(set(idents)) != len(idents):
        print(f"sweep: {spec.path}: two points are the same run (a value repeated in a list?)", file=sys.stderr)
        return 2
    swept = spec.swept_keys() + (["geometry.blocks_per_plane"] if spec.preserve_capacity else [])
    if args.dry_run:
        for ident, (point, error) in zip(idents, prepared):
            print(f"{ident}: ssdsim run {' '.join(point.arguments())}" + (f"\n  cannot run: {error}" if error else ""))
        return 1 if any(error for _, error in prepared) else 0

    out = os.path.abspath(args.out)
    points_dir = os.path.join(out, "points")
    os.makedirs(points_dir, exist_ok=True)
    rows, pending = {}, []
    for ident, (point, error) in zip(idents, prepared):
        folder = os.path.join(points_dir, ident)
        report_path = os.path.join(folder, "report.json")
        row = load_row(ident, point, folder, report_path, spec.columns) if os.path.exists(report_path) else None
        if row is not None:  # done before: resume
            rows[ident] = row
        elif error:
            rows[ident] = record(ident, point, folder, {"exit": None, "error": error}, None, spec.columns)
        else:
            pending.append((ident, point))
    failed_before = sum(1 for r in rows.values() if r["status"] != "ok")
    csv_path = os.path.join(out, "results.csv")

    def write_results():  # the rows recorded so far, in the spec's order
        results.write(csv_path, swept, [rows[i] for i in idents if i in rows], spec.columns)

    write_results()

    started = time.monotonic()
    client = cluster = None
    interrupted = False
    progress = None
    try:
        cluster_info = {"scheduler": None, "workers": 0}
        if pending:
            try:
                client, cluster, cluster_info = start_cluster(args)
            except SpecError as e:
                print(f"sweep: {e}", file=sys.stderr)
                return 2
        write_sweep_json(out, spec, ssdsim, idents, prepared, cluster_info)
        print(f"sweep: {len(idents)} points, {len(rows) - failed_before} done before, {failed_before} cannot run, "
              f"{len(pending)} to run on {cluster_info['workers']} workers ({cluster_info['scheduler']})",
              file=sys.stderr)
        progress = Progress(len(idents), len(rows), args.progress == "always" or
                            (args.progress == "auto" and sys.stderr.isatty()))
        if pending:
            from distributed import as_completed
            futures = {}
            run_token = uuid.uuid4().hex[:8]  # task keys of this run only, on a shared scheduler too
            for ident, point in pending:
                with open(point.platform) as f:
                    platform_text = f.read()
                future = client.submit(runner.run_point, ssdsim, point.arguments(), platform_text, spec.timeout_s,
                                       key=f"ssdsim-{ident}-{run_token}", pure=False)
                futures[future] = (ident, point)
            for future in as_completed(futures):
                ident, point = futures[future]
                try:
                    outcome = future.result()
                except Exception as e:  # the worker itself failed (lost, killed)
                    outcome = {"exit": None, "error": f"worker failed: {e!r}", "report": None}
                folder = os.path.join(points_dir, ident)
                try:
                    rows[ident] = record(ident, point, folder, outcome, outcome.pop("report", None), spec.columns)
                except (OSError, ValueError) as e:  # this point's files: recorded as its failure
                    rows[ident] = results.row(ident, point.values, {**outcome, "exit": outcome.get("exit"),
                                                                    "error": f"cannot record the point: {e}"},
                                              None, "", spec.columns)
                progress.step(rows[ident]["status"] == "ok")
                write_results()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if progress:
            progress.close()
        if client:
            client.close()
        if cluster:
            cluster.close()
    write_results()
    failed = sum(1 for r in rows.values() if r["status"] != "ok")
    ran = len(rows) - (len(idents) - len(pending))
    print(f"sweep: {len(rows)} of {len(idents)} points recorded ({failed} failed), {ran} run in "
          f"{time.monotonic() - started:.1f} s; {csv_path}", file=sys.stderr)
    if interrupted:
        print("sweep: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    return 1 if failed else 0


def record(ident, point, folder, outcome, report_text, extra):
    """Writes the point's files and returns its row."""
    os.makedirs(folder, exist_ok=True)
    report = None
    if report_text is not None:
        report = json.loads(report_text)
        # Whole or not at all: an interrupted write must not leave a report that resume trusts.
        partial = os.path.join(folder, "report.json.partial")
        with open(partial, "w") as f:
            f.write(report_text)
        os.replace(partial, os.path.join(folder, "report.json"))
    with open(os.path.join(folder, "summary.txt" if report else "error.txt"), "w") as f:
        f.write(outcome.get("summary", "") if report else (outcome.get("error") or "") + "\n")
    outcome = {k: v for k, v in outcome.items() if k != "summary"}
    outcome["command"] = ["ssdsim", "run", *point.arguments()]
    with open(os.path.join(folder, "outcome.json"), "w") as f:
        json.dump(outcome, f, indent=1)
    return results.row(ident, point.values, outcome, report, os.path.join("points", ident, "report.json"), extra)


def load_row(ident, point, folder, report_path, extra):
    outcome = {"exit": 0}
    try:
        with open(os.path.join(folder, "outcome.json")) as f:
            outcome = json.load(f)
    except (OSError, ValueError):
        pass
    try:
        with open(report_path) as f:
            report = json.load(f)
    except ValueError:  # unreadable: run the point again
        return None
    return results.row(ident, point.values, outcome, report, os.path.join("points", ident, "report.json"), extra)


def write_sweep_json(out, spec, ssdsim, idents, prepared, cluster_info):
    with open(os.path.join(out, "sweep.json"), "w") as f:
        json.dump({"spec": spec.path, "definition": spec.doc, "ssdsim": ssdsim, "cluster": cluster_info,
                   "points": [{"point": i, "values": p.values, "command": ["ssdsim", "run", *p.arguments()],
                               "cannot_run": e} for i, (p, e) in zip(idents, prepared)]},
                  f, indent=1, default=str)


if __name__ == "__main__":
    sys.exit(main())
