"""What every paper reproduction shares: running a matrix of ssdsim runs in parallel, reading the
counters the claims need, judging a claim against the paper's numbers, and writing the
Markdown report, the CSV and the plots (bench/reproductions/README.md describes the format)."""
import argparse
import csv
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench_common import ROOT, TRACES_DIR, run_ssdsim  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


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
    p.add_argument("--reuse", action="store_true",
                   help="read the reports of runs already made (same names) instead of running them again: "
                        "for rewriting the Markdown after editing the notes")
    args = p.parse_args()
    runs = os.path.join(ROOT, "results", "reproductions", paper + ("-quick" if args.quick else ""))
    args.runs = os.path.join(args.out, "runs") if args.out else runs
    args.out = args.out or (runs if args.quick else HERE)
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.runs, exist_ok=True)
    return args


def run_matrix(args, jobs):
    """jobs: {name: ssdsim run arguments}. Returns {name: report}."""
    def one(item):
        name, cmd = item
        report = os.path.join(args.runs, name + ".json")
        if args.reuse and os.path.exists(report):
            with open(report) as f:
                return name, json.load(f)
        return name, run_ssdsim(cmd, report)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return dict(pool.map(one, jobs.items()))


def trace_args(args, traces, name):
    """ssdsim run arguments for traces[name] = (path, passes, time scale, extra arguments): a trace
    under args.traces_dir (or an absolute path), or a job file (.yaml: closed loop, the host's
    queue depth)."""
    path, passes, scale, extra = traces[name]
    if path.endswith(".yaml"):
        return ["--jobs", path, *extra]
    return ["-t", os.path.join(args.traces_dir, path), "--repeat", str(passes), "--time-scale", str(scale),
            "--fold", *extra]


def metric(report, key, default=0):
    """An FTL counter (ftl_metrics) or a dotted path into the report."""
    if "." not in key:
        return report["ftl_metrics"].get(key, default)
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
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
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


def report_header(paper_title, paper, quick):
    """The first lines of <paper>.md."""
    return [f"# {paper_title} reproduction (`bench/reproductions/{paper}.py`)\n",
            f"Regenerated by `bench/reproductions/{paper}.py` from the runs it makes" +
            (" (**--quick**: a reduced matrix that checks the script, not the paper)" if quick else "") + ".\n"]


def write_report(out_dir, paper, lines):
    """Appends "Why ours differ" and writes <paper>.md into out_dir (and prints it)."""
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
