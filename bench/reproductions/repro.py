"""What every paper reproduction shares: running a matrix of ssdsim runs in parallel, reading the
counters the claims need, judging a claim against the paper's numbers, and writing the
Markdown report, the CSV and the plots (bench/reproductions/README.md describes the format)."""
import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench_common import ROOT, SSDSIM, TRACES_DIR, run_ssdsim  # noqa: E402

# The papers' traces hold at least a million write requests (ADAPT: "at least a million. We did
# not use other shorter traces"); the shared ones are excerpts of 1,000-60,000 requests. A
# headline figure never loops an excerpt (every page would be rewritten once a pass): it replays
# a stand-in of STANDIN_WRITES write requests that `ssdsim standin` reconstructs from the excerpt
# (LRU stack-distance model with the excerpt's sizes, sequentiality and reuse distances; its
# statistics beside the excerpt's are in each report).
STANDIN_WRITES = 1_000_000
# ...and a written footprint of at most this many 4 KiB pages: YCSB on ext4 writes 72 new pages a
# request, so a million of its writes would cover 270 GiB (hours a run); its stand-in holds fewer
# requests of the same mix.
VOLUME_PAGES = 4_000_000
# Sweeps and ablations (many runs per trace) replay shorter stand-ins, still many times the
# excerpt and never looped; each report says which tables use which.
DETAIL_WRITES = 100_000
STANDIN_SEED = 1
# Simulated time holds 1.46 years (tlm/time_base.h); a stand-in whose trace time would reach
# past SIM_SECONDS is replayed with its arrivals compressed to fit (sparse excerpts such as
# wdev_1, 563 s between requests, span years at a million writes).
SIM_SECONDS = 0.9 * 1.46 * 365 * 86400
# A trace reader takes at most a year of trace time (stimuli/text_trace.h): a stand-in that would
# span more is made again with its gaps compressed to fit (a stated --time-scale of ssdsim standin).
READER_SECONDS = 0.95 * 365 * 86400

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PLATFORM = os.path.join(ROOT, "platforms", "default.yaml")
DEFAULT_PART_TITLE = "the same FTLs at their defaults on the default platform"


def split_matrix(args, jobs):
    """(paper-platform jobs, default-platform jobs) of a matrix, each empty when the options leave it
    out. Default-platform runs are named default-* and defwt-* and write <paper>-default.md."""
    on_default = lambda name: name.split("-")[0] in ("default", "defwt")
    paper = {} if args.default_platform_only else {n: c for n, c in jobs.items() if not on_default(n)}
    default = {} if args.no_default_platform or args.quick else {n: c for n, c in jobs.items() if on_default(n)}
    return paper, default


def default_part_link(paper):
    """The line <paper>.md gives in place of the default-platform tables."""
    return (f"## {DEFAULT_PART_TITLE[0].upper() + DEFAULT_PART_TITLE[1:]}\n\nIn [{paper}-default.md]({paper}-default.md) "
            f"(`{paper}.py --default-platform-only` regenerates it alone when the default platform changes).\n")


def arguments(description, paper):
    """The options every reproduction takes; --out defaults to bench/reproductions (the md, CSV
    and plots) with the runs' reports under results/reproductions/<paper>."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="a reduced matrix in under 2 minutes (checks the script works, not the numbers)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", default=None, help="where the .md, .csv and plots go, the runs' reports in its runs/ "
                   "(default: bench/reproductions with reports in results/reproductions/<paper>, or "
                   "results/reproductions/<paper>-quick with --quick)")
    p.add_argument("--traces-dir", default=TRACES_DIR)
    p.add_argument("--standin-writes", type=int, default=STANDIN_WRITES,
                   help="write requests in each trace's stand-in (default %(default)s: the papers' at least a million)")
    p.add_argument("--detail-writes", type=int, default=DETAIL_WRITES,
                   help="write requests in the stand-ins that sweeps and ablations replay (default %(default)s)")
    p.add_argument("--no-default-platform", action="store_true",
                   help="leave out the runs of the same FTLs on platforms/default.yaml (their tables are omitted)")
    p.add_argument("--default-platform-only", action="store_true",
                   help="only the runs on platforms/default.yaml: rewrites <paper>-default.md and .csv and leaves "
                        "<paper>.md alone (the paper platforms' runs do not depend on the default platform, which "
                        "changes as the product gains mechanisms)")
    p.add_argument("--from-end", action="store_true",
                   help="run the matrix last job first: a second process with --reuse on another core works "
                        "through it from the other end (each skips the reports already made; only the job "
                        "both reach last runs twice)")
    p.add_argument("--keep-only", action="store_true",
                   help="run nothing: keep the reports of the runs already made under results/ slim in "
                        "bench/reproductions/runs (to commit, so the matrix goes on from there in another session) "
                        "and stop")
    p.add_argument("--reuse", action="store_true",
                   help="read the reports of runs already made (same names) instead of running them again: "
                        "for rewriting the Markdown after editing the notes")
    args = p.parse_args()
    args.reuse = args.reuse or args.keep_only
    if args.default_platform_only and args.no_default_platform:
        p.error("--default-platform-only and --no-default-platform leave nothing to run")
    runs = os.path.join(ROOT, "results", "reproductions", paper + ("-quick" if args.quick else ""))
    args.runs = os.path.join(args.out, "runs") if args.out else runs
    args.out = args.out or (runs if args.quick else HERE)
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.runs, exist_ok=True)
    # The published tables' runs are kept slim in the repository (KEPT_RUNS), so that a matrix
    # longer than a working session goes on from where it stopped, on any clone.
    args.kept = None if args.quick or args.out != HERE else os.path.join(KEPT_RUNS, paper)
    if args.kept:
        os.makedirs(args.kept, exist_ok=True)
    return args


KEPT_RUNS = os.path.join(HERE, "runs")


def slim(report, cmd):
    """The figures the reproductions read, a few KB of a report's hundreds, with the run's
    arguments (paths relative to the project) so a kept run is reused only for the same command."""
    host = {k: v for k, v in report["host"].items() if k not in ("over_time", "latency_cdf_us", "issuers")}
    dies = report.get("utilization", {}).get("dies")
    return {"command": portable(cmd), "platform_sha256": platform_digest(cmd), "ftl_metrics": report["ftl_metrics"], "host": host,
            "workload": report["workload"], "platform": {"effective": report["platform"]["effective"]},
            "simulation": report["simulation"], "write_buffer": report.get("write_buffer", {}),
            "hardware": {"channels": [{"dies": [{"erases": d["erases"]} for d in ch["dies"]]}
                                      for ch in report["hardware"]["channels"]]},
            "utilization": {"dies": dies} if dies is not None else {}}


def platform_path(cmd):
    return cmd[cmd.index("-p") + 1]


def newer_than_platform(report, cmd):
    return os.path.getmtime(report) > os.path.getmtime(platform_path(cmd))


def platform_digest(cmd):
    """The SHA-256 of the run's platform file: a kept run made before the file changed (a
    default flipped, a timing refitted) is not reused, though its command reads the same."""
    with open(platform_path(cmd), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def portable(cmd):
    return [a.replace(ROOT, "$ROOT") for a in cmd]


def run_matrix(args, jobs, sizing=False, may_fail=False):
    """jobs: {name: ssdsim run arguments}. Returns {name: report} (full reports, or the kept slim
    ones with --reuse). Every run made is kept slim (args.kept) as soon as it ends. With may_fail
    a run that fails gives {"failed": message} (kept too, see failed()) instead of ending the study. With
    --keep-only the first matrix that is not a sizing step (the probes that size drives, which run
    as usual) keeps what was made and ends the process."""
    keep_only = args.keep_only and not sizing
    def one(item):
        name, cmd = item
        report = os.path.join(args.runs, name + ".json")
        kept = os.path.join(args.kept, name + ".json") if args.kept else None
        # A report of this session's results/ counts only if made after the platform file's
        # last change (the kept runs check the file's digest instead).
        if (args.reuse or keep_only) and os.path.exists(report) and newer_than_platform(report, cmd):
            with open(report) as f:
                rep = json.load(f)
            if kept and not kept_matches(kept, cmd):
                keep(kept, rep, cmd)
            return name, rep
        if keep_only:
            return name, None
        if args.reuse and kept:
            k = kept_matches(kept, cmd)
            if k:
                return name, k
        rep = run_ssdsim(cmd, report, may_fail)
        if kept:
            keep(kept, rep, cmd)
        return name, rep
    items = list(jobs.items())
    if args.from_end:
        items.reverse()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = dict(pool.map(one, items))
    if keep_only:
        print(f"kept {sum(r is not None for r in done.values())} of {len(done)} runs in {args.kept}")
        sys.exit(0)
    return done


def kept_matches(path, cmd):
    """The kept run at path if it was made by this command on this platform file, else None."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        k = json.load(f)
    if k.get("command") == portable(cmd) and k.get("platform_sha256") == platform_digest(cmd):
        return k
    return None


def failed(report):
    """The message of a run that failed (run_matrix with may_fail), else None."""
    return report.get("failed")


# A default-platform run the FTL cannot finish at its defaults (SUPERBLOCK's and SubGroup's pool
# spent with word-line padding on MLC) is shown as OUT_OF_SPACE and made again, labelled, with
# this much overprovisioning (the power-cut tests run SubGroup at 0.25 for the same reason).
RETRY_OVERPROVISIONING = 0.25
OUT_OF_SPACE = "out of space at its defaults"


def retried(name):
    """The name of the labelled run with more overprovisioning made in place of a failed one."""
    return f"{name}-op{RETRY_OVERPROVISIONING}"


def run_default_matrix(args, jobs):
    """run_matrix for the default-platform runs: a run that fails is kept as such, and made again
    with ftl.overprovisioning RETRY_OVERPROVISIONING (retried(name))."""
    r = run_matrix(args, jobs, may_fail=True)
    retries = {retried(n): [*c, "--set", f"ftl.overprovisioning={RETRY_OVERPROVISIONING}"]
               for n, c in jobs.items() if failed(r[n])}
    if retries:
        r.update(run_matrix(args, retries, may_fail=True))
    return r


def failure_cells(report, width):
    """A table row's `width` cells for a run that failed: why, then "-"."""
    why = OUT_OF_SPACE if "is spent" in failed(report) else "failed: " + failed(report)
    return [why] + ["-"] * (width - 1)


RETRY_NOTE = (f"\"{OUT_OF_SPACE}\": the run stopped with the FTL's out-of-space error (its pool of free blocks "
              "spent; ssdsim names the cause), and the row after it is the same run with ftl.overprovisioning "
              f"{RETRY_OVERPROVISIONING} (the default: 0.07), a labelled comparison.")


def keep(path, report, cmd):
    kept = ({"command": portable(cmd), "platform_sha256": platform_digest(cmd), "failed": failed(report)}
            if failed(report) else slim(report, cmd))
    with open(path + ".part", "w") as f:
        json.dump(kept, f, separators=(",", ":"), sort_keys=True)
    os.replace(path + ".part", path)


def trace_args(args, traces, name, looped=False, writes=None):
    """ssdsim run arguments for traces[name] = (path, passes, time scale, extra arguments): a job
    file (.yaml: closed loop, the host's queue depth, synthetic); else the trace under
    args.traces_dir (or an absolute path) as its long stand-in (standin()), or with looped=True
    the excerpt replayed `passes` times back to back (the comparison the headline no longer uses)."""
    path, passes, scale, extra = traces[name]
    if path.endswith(".yaml"):
        return ["--jobs", path, *extra]
    if looped or args.quick:
        return ["-t", os.path.join(args.traces_dir, path), "--repeat", str(passes), "--time-scale", str(scale),
                "--fold", *extra]
    path = standin(args, traces, name, writes)
    duration = standin_stats(args, traces, name, writes)["standin"]["duration_s"]
    if duration * scale > SIM_SECONDS:
        scale = SIM_SECONDS / duration
    return ["-t", path, "--time-scale", f"{scale:.6g}", "--fold"]


def is_synthetic(traces, name):
    return traces[name][0].endswith(".yaml")


def standin(args, traces, name, writes=None):
    """The long stand-in of traces[name]'s excerpt (made once, kept under results/reproductions/
    standins with its statistics beside it): its path."""
    path, _, _, extra = traces[name]
    extra = extra if isinstance(extra, list) else []
    writes = writes or args.standin_writes
    folder = os.path.join(ROOT, "results", "reproductions", "standins")
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(args.traces_dir, path)
    skip = [a for a in extra if a == "--skip-bad-lines"]
    # A read-dominated excerpt (under 1% writes; WebSearch: 0.016%) would need billions of requests for a
    # million writes: its stand-in has that many requests instead ("r" in the name).
    by_requests = excerpt_write_share(source, skip, folder, name) < READ_DOMINATED_WRITE_SHARE
    out = os.path.join(folder, f"{name}-{writes}{'r' if by_requests else ''}-s{STANDIN_SEED}.csv.gz")
    stats = out.replace(".csv.gz", ".json")
    if not (os.path.exists(out) and os.path.exists(stats)):
        partial = out.replace(".csv.gz", ".part.csv.gz")
        cmd = [SSDSIM, "standin", "-t", source, "--requests" if by_requests else "--writes", str(writes), "--seed",
               str(STANDIN_SEED), "-o", partial, "--stats-json", stats, "-q", *skip]
        generate(cmd)
        with open(stats) as f:
            made = json.load(f)["standin"]
        if made["written_pages"] > VOLUME_PAGES:  # large requests: fewer of them, the footprint capped
            capped = max(1, writes * VOLUME_PAGES // made["written_pages"])
            cmd[cmd.index("--requests" if by_requests else "--writes") + 1] = str(capped)
            generate(cmd)
            with open(stats) as f:
                made = json.load(f)["standin"]
        if made["duration_s"] > READER_SECONDS:  # a sparse excerpt: the same stand-in, gaps compressed to fit
            generate(cmd + ["--time-scale", f"{READER_SECONDS / made['duration_s']:.6g}"])
        os.replace(partial, out)
    return out


READ_DOMINATED_WRITE_SHARE = 0.01  # WebSearch: 0.016%; the YCSB capture, the next lowest: 9%


def excerpt_write_share(source, skip, folder, name):
    """The excerpt's share of writes, from a small stand-in's statistics (kept beside the others)."""
    stats = os.path.join(folder, f"{name}-probe-s{STANDIN_SEED}.json")
    if not os.path.exists(stats):
        probe = stats.replace(".json", ".csv.gz")
        generate([SSDSIM, "standin", "-t", source, "--requests", "1000", "--seed", str(STANDIN_SEED), "-o", probe,
                  "--stats-json", stats, "-q", *skip])
        os.remove(probe)
    with open(stats) as f:
        return json.load(f)["excerpt"]["write_share"]


def generate(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}\nfailed ({done.returncode}): {done.stderr.strip()}")


def prepare_standins(args, traces, lengths=(None,)):
    """Makes every trace's stand-ins (of each of `lengths` writes; None: args.standin_writes) up
    front, in parallel, before runs that replay them start."""
    names = [(t, n) for t in traces if not is_synthetic(traces, t) for n in lengths]
    if args.quick or not names:
        return
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(lambda tn: standin(args, traces, *tn), names))


def footprint_pages(args, traces, name, probes, page_bytes, writes=None):
    """Distinct pages of `page_bytes` a run of traces[name] writes, to size its drive by: a
    stand-in's own (its statistics; a probe replaying it would fold its sparse range into the probe
    drive and measure that drive's capacity instead), else the probe run's (probes[f"probe-{name}"])."""
    if args.quick or is_synthetic(traces, name):
        return probes[f"probe-{name}"]["workload"]["written_footprint_pages"]
    return standin_stats(args, traces, name, writes)["standin"]["written_pages"] * 4096 // page_bytes


def written_footprints(args, traces, chip, page_bytes):
    """Each trace's written footprint in pages of `page_bytes`, for its headline stand-in and for
    its detail one ({name: pages} twice; the same with --quick), to size drives by. Makes the
    stand-ins first; a page-mapping probe on `chip` measures the workloads that have none."""
    detail = None if args.quick else args.detail_writes
    prepare_standins(args, traces, (None, detail))
    probes = run_matrix(args, {f"probe-{t}": ["-p", chip, "--ftl", "page_mapping", *trace_args(args, traces, t)]
                               for t in traces if args.quick or is_synthetic(traces, t)}, sizing=True)
    full = {t: footprint_pages(args, traces, t, probes, page_bytes) for t in traces}
    if not detail:
        return full, full
    return full, {t: footprint_pages(args, traces, t, probes, page_bytes, detail) for t in traces}


def excerpt_footprints(args, traces, page_bytes):
    """Each real trace's excerpt's written footprint in pages of `page_bytes` (its stand-in's
    statistics hold it), to size the drive its looped comparison runs on as the looped runs were
    sized before the stand-ins: a looped excerpt on a drive sized for a million-write stand-in
    would never fill its log."""
    return {t: standin_stats(args, traces, t)["excerpt"]["written_pages"] * 4096 // page_bytes
            for t in traces if not is_synthetic(traces, t)}


def standin_stats(args, traces, name, writes=None):
    """The statistics `ssdsim standin` wrote for traces[name]'s stand-in (the excerpt's beside it)."""
    return json.load(open(standin(args, traces, name, writes).replace(".csv.gz", ".json")))


def metric(report, key, default=0):
    """An FTL counter (ftl_metrics) or a dotted path into the report."""
    if "." not in key:
        value = report["ftl_metrics"].get(key, default)
        return default if value is None else value  # waf is null when no page reached the FTL
    node = report
    for part in key.split("."):
        node = node[part]
    return node


def ftl_waf(report):
    """The FTL's WAF, or '-' when no page reached it (a write buffer held them all)."""
    return round(metric(report, "waf"), 3) if metric(report, "host_pages_written") else "-"


def left_in_buffer(report):
    """Pages the write buffer still held at the end (they never reached the FTL), or '-' without one."""
    wb = report.get("write_buffer", {})
    return int(wb["pages_at_end"]) if "pages_at_end" in wb else "-"


def translation_io(report):
    g = lambda k: metric(report, k)
    return (g("translation_reads_host") + g("translation_reads_gc"),
            g("translation_writes_host") + g("translation_writes_gc"))


# An open-loop replay whose drive serves less than this share of the offered rate has fallen
# behind the trace: its latencies grow with the queue, not with the FTL, and are not compared.
KEPT_UP = 0.95


def kept_up(report):
    """The share of the trace's offered request rate the drive served (open loop; 1 closed loop)."""
    offered = report["host"].get("offered_iops") or 0
    return min(1.0, report["host"]["iops"] / offered) if offered else 1.0


def ratio(a, b):
    return a / b if b else float("nan")


def fmt(x, digits=2):
    if isinstance(x, float):
        return "-" if x != x else f"{x:.{digits}f}"
    return f"{x:,}" if isinstance(x, int) else str(x)


def judge(ours, low, high, direction=None):
    """agrees when ours lies in the paper's [low, high] (with 10% slack); 'same direction' when
    it is on the same side of 1 as the paper (direction '<' or '>'); else differs."""
    if ours != ours:
        return "not comparable"
    if low * 0.9 <= ours <= high * 1.1:
        return "agrees"
    if direction == "<" and ours < 1 or direction == ">" and ours > 1:
        return "same direction, other size"
    return "differs"


def spearman(xs, ys):
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(v):
        order = sorted(range(len(v)), key=v.__getitem__)
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    var = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return cov / var if var else float("nan")


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def write_csv(path, rows):
    if not rows:
        return
    fields = list(dict.fromkeys(k for row in rows for k in row))  # a failed run's row has its own column
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def _axes(figsize):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=figsize)


def _save(fig, ax, path, title, xlabel, ylabel):
    import matplotlib.pyplot as plt
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def bar_plot(path, title, groups, series, values, ylabel):
    """values[(group, series)] -> number; one bar per series in each group."""
    fig, ax = _axes((max(6, 1.2 * len(groups) * len(series) / 2), 3.6))
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        ax.bar([g + i * width for g in range(len(groups))], [values.get((grp, s), 0) for grp in groups], width, label=s)
    ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))])
    ax.set_xticklabels(groups)
    _save(fig, ax, path, title, None, ylabel)


def line_plot(path, title, xs, lines, xlabel, ylabel, logx=True):
    """lines: {label: [y per x]}, with a reference line at 1."""
    fig, ax = _axes((6, 3.6))
    for label, ys in lines.items():
        ax.plot(xs, ys, marker="o", label=label)
    if logx:
        ax.set_xscale("log", base=2)
    ax.axhline(1.0, color="grey", linewidth=0.5)
    _save(fig, ax, path, title, xlabel, ylabel)


def report_header(paper_title, paper, quick, part=""):
    """The first lines of <paper>.md (or of <paper>-<part>.md, a part regenerated on its own)."""
    option = " --default-platform-only" if part == "default" else ""
    return [f"# {paper_title} reproduction{': ' + DEFAULT_PART_TITLE if part == 'default' else ''} "
            f"(`bench/reproductions/{paper}.py`)\n",
            f"Regenerated by `bench/reproductions/{paper}.py{option}` from the runs it makes" +
            (" (**--quick**: a reduced matrix that checks the script, not the paper; its trace is the "
             "bundled excerpt looped, not a long trace)" if quick else "") + ".\n"]


def write_default_report(args, paper_title, paper, heading, header, rows, note=""):
    """<paper>-default.md: one table of the same FTLs at their defaults on the default platform,
    with its notes (<paper>-default-notes.md)."""
    out = report_header(paper_title, paper, args.quick, part="default")
    out += [f"## {heading}\n", table(header, rows), f"\n{note}\n" if note else ""]
    write_report(args.out, paper + "-default", out)


def write_report(out_dir, paper, lines):
    """Appends "Why ours differ" and writes <paper>.md into out_dir (and prints it). paper may name a
    part of a reproduction, such as "last-default", with its own notes file."""
    append_notes(lines, paper)
    with open(os.path.join(out_dir, paper + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def append_notes(out, paper):
    """Appends "Why ours differ" from <paper>-notes.md: the explanations, each citing the counter
    or ablation of this report that shows the cause (rewritten when the runs change)."""
    notes = os.path.join(HERE, paper + "-notes.md")
    out.append("## Why ours differ\n")
    if os.path.exists(notes):
        with open(notes) as f:
            out.append(f.read())
    else:
        out.append("(no notes yet)\n")
