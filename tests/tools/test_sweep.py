#!/usr/bin/python3
"""tools/sweep.py end to end: a real Dask LocalCluster with 2 workers runs the 4-point example
spec; then resume, failed points and a capacity-preserving grid. Needs $SSDSIM (ctest sets it)."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(PROJECT, "tools", "sweep.py")
SSDSIM = os.environ.get("SSDSIM", os.path.join(PROJECT, "build", "platforms", "ssdsim"))


def sweep(spec, out, *extra):
    done = subprocess.run([sys.executable, SWEEP, spec, "--out", out, "--ssdsim", SSDSIM, "--progress", "never",
                           *extra], capture_output=True, text=True, cwd=PROJECT)
    return done.returncode, done.stderr


def rows_of(out):
    with open(os.path.join(out, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def report_of(out, row):
    with open(os.path.join(out, row["report"])) as f:
        return json.load(f)


class Sweep(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ssdsweep-test-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_example_spec_on_a_two_worker_local_cluster_then_plots_compare_and_resume(self):
        out = os.path.join(self.dir, "out")
        code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), out, "--workers", "2")
        self.assertEqual(code, 0, log)
        with open(os.path.join(out, "sweep.json")) as f:
            self.assertEqual(json.load(f)["cluster"], {"scheduler": "LocalCluster", "workers": 2})
        rows = rows_of(out)
        self.assertEqual([(r["geometry.channels"], r["geometry.ways"]) for r in rows],
                         [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")])
        for r in rows:
            c, w = int(r["geometry.channels"]), int(r["geometry.ways"])
            report = report_of(out, r)
            self.assertEqual(r["status"], "ok")
            self.assertEqual(r["exit"], "0")
            self.assertEqual(r["platform"], f"tiny [geometry.channels={c}, geometry.ways={w}]")
            # The point ran the geometry its columns name: c channels of w dies.
            self.assertEqual(len(report["hardware"]["channels"]), c)
            self.assertEqual(sum(len(ch["dies"]) for ch in report["hardware"]["channels"]), c * w)
            self.assertEqual(int(r["requests"]), 20000)
            self.assertEqual(float(r["iops"]), report["host"]["iops"])
            self.assertEqual(float(r["write_latency_p99_us"]), report["host"]["write_latency_us"]["p99"])
            self.assertEqual(float(r["busy_channels_max"]), report["utilization"]["channels"]["max"])
            for k in r:
                if k.startswith("busy_"):
                    self.assertTrue(0 <= float(r[k]) <= 1, (k, r[k]))
            u = report["utilization"]
            expected = (" + ".join(u["limited_by"]) if u["limited_by"] else
                        u["busiest"]["resource"] if u["bound"] else "host")
            self.assertEqual(r["bottleneck"], expected)
            self.assertGreater(float(r["cpu_s"]), 0)
        # tools/sweep_plot.py: the plots its help promises, PNG and SVG.
        plots = os.path.join(self.dir, "plots")
        done = subprocess.run([sys.executable, os.path.join(PROJECT, "tools", "sweep_plot.py"), out, "--out", plots],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        for name in ("vs_geometry.channels", "vs_geometry.ways", "busy_vs_geometry.channels",
                     "heatmap_throughput_mb_per_s", "heatmap_bottleneck", "latency_cdf"):
            with open(os.path.join(plots, name + ".png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
            with open(os.path.join(plots, name + ".svg")) as f:
                self.assertIn("<svg", f.read(2000), name)
        # tools/compare.py on the 1 x 1 and 2 x 2 points: the ratio is the reports' and the
        # geometry is listed among the differences.
        a, b = report_of(out, rows[0]), report_of(out, rows[3])
        done = subprocess.run([sys.executable, os.path.join(PROJECT, "tools", "compare.py"),
                               os.path.join(out, rows[0]["report"]), os.path.join(out, rows[3]["report"])],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
        self.assertEqual(lines["iops"][-1], f"x{b['host']['iops'] / a['host']['iops']:.3f}")
        self.assertEqual(lines["platform.effective.geometry.channels"][1:], ["1", "2"])
        self.assertEqual(lines["platform.effective.geometry.ways"][1:], ["1", "2"])
        self.assertNotIn("platform.effective.geometry.page_bytes", lines)
        # Resume: every report exists, nothing runs, nothing is rewritten, the rows are the same.
        stamps = {r["point"]: os.stat(os.path.join(out, r["report"])).st_mtime_ns for r in rows}
        code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), out, "--workers", "2")
        self.assertEqual(code, 0, log)
        self.assertIn("4 done before", log)
        self.assertEqual({r["point"]: os.stat(os.path.join(out, r["report"])).st_mtime_ns for r in rows}, stamps)
        self.assertEqual(rows_of(out), rows)
        # A report cut short (the sweep killed while writing it) is not trusted: the point runs again.
        with open(os.path.join(out, rows[1]["report"]), "w") as f:
            f.write('{"schema": ')
        code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), out, "--workers", "1")
        self.assertEqual(code, 0, log)
        self.assertIn("3 done before, 0 cannot run, 1 to run", log)
        # An interrupted sweep (one report missing) runs only what is missing.
        os.remove(os.path.join(out, rows[2]["report"]))
        code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), out, "--workers", "1")
        self.assertEqual(code, 0, log)
        self.assertIn("3 done before, 0 cannot run, 1 to run", log)
        self.assertEqual(len(rows_of(out)), 4)

    def test_an_existing_dask_cluster_through_its_scheduler_address(self):
        # The same spec sent to a running cluster (--scheduler): its worker process has not
        # imported tools/ssdsweep, so this also checks that the task travels by value.
        from distributed import LocalCluster
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            out = os.path.join(self.dir, "out")
            code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), out,
                              "--scheduler", cluster.scheduler_address)
            self.assertEqual(code, 0, log)
        with open(os.path.join(out, "sweep.json")) as f:
            self.assertEqual(json.load(f)["cluster"], {"scheduler": cluster.scheduler_address, "workers": 1})
        rows = rows_of(out)
        self.assertEqual([r["status"] for r in rows], ["ok"] * 4)
        code, log = sweep(os.path.join(PROJECT, "bench", "sweeps", "example.yaml"), os.path.join(self.dir, "x"),
                          "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "1")
        self.assertEqual(code, 2)
        self.assertIn("cannot reach the Dask scheduler at tcp://127.0.0.1:1", log)

    def test_failed_points_are_recorded_with_their_error(self):
        # ways 99 is refused by the run's platform check, qd 64 because it exceeds tiny's
        # host.queue_depth (32); the other point runs. The sweep exits 1.
        spec = self.write("spec.yaml", "platform: platforms/tiny.yaml\n"
                                       "workload: {synthetic: random, count: 500, precondition: none}\n"
                                       "grid:\n  ways: [1, 99]\n  qd: [4, 64]\n")
        out = os.path.join(self.dir, "out")
        code, log = sweep(spec, out, "--workers", "2")
        self.assertEqual(code, 1, log)
        rows = {(r["ways"], r["qd"]): r for r in rows_of(out)}
        self.assertEqual(len(rows), 4)
        self.assertEqual(rows[("1", "4")]["status"], "ok")
        for qd in ("4", "64"):
            self.assertEqual(rows[("99", qd)]["status"], "failed")
            self.assertIn("geometry.ways = 99 is invalid", rows[("99", qd)]["error"])
        self.assertEqual(rows[("1", "64")]["status"], "failed")
        self.assertEqual(rows[("1", "64")]["exit"], "2")
        self.assertIn("host.queue_depth", rows[("1", "64")]["error"])

    def test_named_workloads_seeds_extra_columns_and_a_timeout(self):
        spec = self.write("spec.yaml", "platform: platforms/tiny.yaml\n"
                                       "workload: {synthetic: random, precondition: fill}\n"
                                       "timeout_s: 1\n"
                                       "workloads:\n  short: {count: 300}\n  endless: {count: 50000000}\n"
                                       "seeds: [3, 4]\n"
                                       "columns: {ftl_erases: ftl_metrics/erases, "
                                       "channel1_busy: hardware/channels/1/busy_fraction, "
                                       "channel9_busy: hardware/channels/9/busy_fraction}\n")
        out = os.path.join(self.dir, "out")
        code, log = sweep(spec, out, "--workers", "2")
        self.assertEqual(code, 1, log)
        rows = rows_of(out)
        self.assertEqual([(r["workload_name"], r["seed"]) for r in rows],
                         [("short", "3"), ("short", "4"), ("endless", "3"), ("endless", "4")])
        for r in rows[:2]:
            report = report_of(out, r)
            self.assertEqual(r["status"], "ok")
            self.assertIn(f"300 requests", report["workload"]["description"])
            self.assertTrue(report["workload"]["description"].endswith(f"seed {r['seed']}"))
            self.assertEqual(int(r["ftl_erases"]), report["ftl_metrics"]["erases"])
            self.assertEqual(float(r["energy_j"]), report["energy"]["total_j"])
            # A number in a column's path indexes a list; past its end the cell is empty.
            self.assertEqual(float(r["channel1_busy"]), report["hardware"]["channels"][1]["busy_fraction"])
            self.assertEqual(r["channel9_busy"], "")
        for r in rows[2:]:
            self.assertEqual((r["status"], r["exit"], r["error"]), ("failed", "", "timed out after 1 s"))

    def test_a_swept_platform_and_column_names_that_would_clash(self):
        # The platform file swept is its own column; the report's effective name stays `platform`.
        spec = self.write("spec.yaml", "platform: platforms/tiny.yaml\n"
                                       "workload: {synthetic: random, count: 300, precondition: none}\n"
                                       "grid:\n  platform: [platforms/tiny.yaml]\n  channels: [1]\n")
        out = os.path.join(self.dir, "out")
        code, log = sweep(spec, out, "--workers", "1")
        self.assertEqual(code, 0, log)
        [r] = rows_of(out)
        self.assertEqual(r["platform_file"], "platforms/tiny.yaml")  # as the spec gives it
        self.assertEqual(r["platform"], "tiny [geometry.channels=1]")
        spec = self.write("spec2.yaml", "platform: platforms/tiny.yaml\ncolumns: {iops: ftl_metrics/erases}\n")
        code, log = sweep(spec, os.path.join(self.dir, "out2"))
        self.assertEqual(code, 2)
        self.assertIn("columns.iops would replace a column the results already have", log)

    def test_capacity_preserving_grid_and_zip(self):
        # tiny: 2 x 2 dies x 2 planes x 64 blocks. Channels and ways zipped (1x4, 2x2, 4x1: 4 dies
        # each) and planes swept: blocks per plane follow, so the raw capacity stays 64 MiB.
        spec = self.write("spec.yaml", "platform: platforms/tiny.yaml\n"
                                       "workload: {synthetic: random, count: 300, precondition: none}\n"
                                       "preserve_capacity: true\n"
                                       "grid:\n  geometry.planes_per_die: [1, 2]\n"
                                       "zip:\n  - {geometry.channels: [1, 2, 4], geometry.ways: [4, 2, 1]}\n")
        out = os.path.join(self.dir, "out")
        code, log = sweep(spec, out, "--workers", "2")
        self.assertEqual(code, 0, log)
        rows = rows_of(out)
        self.assertEqual(len(rows), 6)
        for r in rows:
            planes = int(r["geometry.planes_per_die"])
            self.assertEqual(int(r["geometry.blocks_per_plane"]), 128 // planes)
            eff = report_of(out, r)["platform"]["effective"]
            raw = 1
            for k in ("geometry.channels", "geometry.ways", "geometry.dies_per_way", "geometry.planes_per_die",
                      "geometry.blocks_per_plane", "geometry.pages_per_block", "geometry.page_bytes"):
                raw *= eff[k]
            self.assertEqual(raw, 64 << 20)

    def test_a_bad_spec_names_the_key(self):
        spec = self.write("spec.yaml", "platform: platforms/tiny.yaml\nworkload: {synthetic: random, vcd: a.vcd}\n")
        code, log = sweep(spec, os.path.join(self.dir, "out"))
        self.assertEqual(code, 2)
        self.assertIn("workload.vcd is decided by the sweep", log)
        spec = self.write("spec2.yaml", "platform: platforms/tiny.yaml\ngrid:\n  geometry.ways: 2\n")
        code, log = sweep(spec, os.path.join(self.dir, "out"))
        self.assertEqual(code, 2)
        self.assertIn("grid.geometry.ways must be a non-empty list", log)


if __name__ == "__main__":
    unittest.main(verbosity=2)
