"""Runs one point of a sweep as its own `ssdsim run` process, on whichever Dask worker gets it.

The worker needs the same ssdsim executable and the same traces at the same paths as the client;
the platform file travels with the task (its text), and the report comes back with the result,
so workers share no output folder with the client.
"""
import os
import shutil
import socket
import subprocess
import tempfile
import time


def run_point(ssdsim, arguments, platform_text, timeout_s=None, tail_lines=20):
    """Runs `ssdsim run ARGUMENTS` (its -p replaced by a copy of PLATFORM_TEXT) and returns a dict:
    exit (code; negative: killed by that signal; None: timed out), error (stderr's tail when it
    failed), report (text or None), summary (stdout), wall_s, cpu_s (user + system of the process),
    max_rss_mib, host (the worker's machine)."""
    work = tempfile.mkdtemp(prefix="ssdsweep-")
    try:
        args = list(arguments)
        if platform_text is not None and not same_text(args[args.index("-p") + 1], platform_text):
            # This worker does not see the client's platform file: run a copy of its text.
            index = args.index("-p") + 1
            platform = os.path.join(work, os.path.basename(args[index]))
            with open(platform, "w") as f:
                f.write(platform_text)
            args[index] = platform
        command = [ssdsim, "run", *args, "--out", work, "--no-vcd", "--progress", "never"]
        stdout_path, stderr_path = os.path.join(work, "stdout"), os.path.join(work, "stderr")
        start = time.monotonic()
        timed_out = False
        with open(stdout_path, "w") as out, open(stderr_path, "w") as err:
            try:
                process = subprocess.Popen(command, stdout=out, stderr=err, cwd=work)
            except OSError as e:
                return {"exit": 127, "error": f"cannot run {ssdsim}: {e.strerror}", "report": None, "summary": "",
                        "wall_s": 0.0, "cpu_s": 0.0, "max_rss_mib": 0.0, "host": socket.gethostname()}
            deadline = start + timeout_s if timeout_s else None
            while True:  # wait4 gives the child's own CPU time and memory, whatever else runs
                pid, status, usage = os.wait4(process.pid, os.WNOHANG if deadline else 0)
                if pid:
                    break
                if time.monotonic() > deadline:
                    process.kill()
                    timed_out = True
                    pid, status, usage = os.wait4(process.pid, 0)
                    break
                time.sleep(0.05)
            process.returncode = 0  # reaped above; keep Popen from waiting again
        wall = time.monotonic() - start
        code = None if timed_out else (os.waitstatus_to_exitcode(status))
        with open(stdout_path) as f:
            summary = f.read()
        with open(stderr_path) as f:
            stderr = f.read()
        report_path = os.path.join(work, "report.json")
        report = None
        if code == 0 and os.path.exists(report_path):
            with open(report_path) as f:
                report = f.read()
        error = ""
        if timed_out:
            error = f"timed out after {timeout_s} s"
        elif code != 0:
            error = "\n".join(stderr.strip().splitlines()[-tail_lines:]) or f"exit status {code}, no message"
        return {"exit": code, "error": error, "report": report, "summary": summary, "wall_s": wall,
                "cpu_s": usage.ru_utime + usage.ru_stime, "max_rss_mib": usage.ru_maxrss / 1024.0,
                "host": socket.gethostname()}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def same_text(path, text):
    try:
        with open(path) as f:
            return f.read() == text
    except OSError:
        return False
