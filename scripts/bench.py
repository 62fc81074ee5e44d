#!/usr/bin/env python3
"""Benchmarks kb on a generated corpus, side by side with the anchors named in the issues.

Usage: scripts/bench.py [--n 10000] [--runs 5] [--only lint,search,build]
Prints medians of several runs (the machine is shared and noisy) and writes
bench-out/results.json.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KB = os.path.join(ROOT, ".build/release/kb")
GEN = os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py")


def run(cmd, cwd=None, env=None):
    """Runs a command under /usr/bin/time; returns (seconds, peak RSS in MB, stdout)."""
    full = ["/usr/bin/time", "-f", "%e %M"] + cmd
    proc = subprocess.run(full, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    last = proc.stderr.strip().splitlines()[-1].split()
    if proc.returncode not in (0, 1):
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return float(last[0]), int(last[1]) / 1024, proc.stdout


def median_of(runs, cmd, cwd=None, before=None):
    times, rss = [], []
    for _ in range(runs):
        if before:
            before()
        t, m, _ = run(cmd, cwd=cwd)
        times.append(t)
        rss.append(m)
    return statistics.median(times), max(rss), times


def du(path):
    total = 0
    for base, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(base, f))
    return total


def corpus(n, layout="both"):
    out = f"/tmp/kb-bench-{n}-{layout}"
    if not os.path.exists(os.path.join(out, ".done")):
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, GEN, "--n", str(n), "--out", out, "--layout", layout], check=True,
                       stdout=subprocess.DEVNULL)
        open(os.path.join(out, ".done"), "w").close()
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="lint,search,build")
    args = parser.parse_args()
    parts = args.only.split(",")
    if not os.path.exists(GEN):
        sys.exit(f"skipped: the corpus generator {GEN} is not present")
    results = {"n": args.n, "runs": args.runs}
    base = corpus(args.n, "kb")
    size = du(os.path.join(base, "entries"))
    print(f"corpus: {args.n} entries, {size / 1e6:.1f} MB of Markdown, {os.cpu_count()} cores")

    if "lint" in parts:
        t, m, all_t = median_of(args.runs, [KB, "lint", "entries"], cwd=base)
        files = [os.path.join(b, f) for b, _, fs in os.walk(os.path.join(base, "entries")) for f in fs]
        cm = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run(["sh", "-c", "find entries -name entry.md -print0 | xargs -0 cat | cmark > /dev/null"], cwd=base, check=True)
            cm.append(time.perf_counter() - start)
        results["lint"] = {"median_s": t, "runs_s": all_t, "peak_rss_mb": m, "cmark_cli_median_s": statistics.median(cm)}
        print(f"kb lint:  median {t:.2f} s over {args.runs} runs {['%.2f' % x for x in all_t]}, peak RSS {m:.0f} MB "
              f"(target < 2 s) | cmark CLI over the same files: {statistics.median(cm):.2f} s")

    for name, fn in [("search", bench_search), ("build", bench_build)]:
        if name in parts:
            fn(args, base, results)

    os.makedirs(os.path.join(ROOT, "bench-out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench-out", "results.json"), "w") as f:
        json.dump(results, f, indent=2)


def has_command(name):
    proc = subprocess.run([KB, "help", name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc.returncode == 0


def bench_search(args, base, results):
    if not has_command("search"):
        print("search: skipped (kb search is not built)")
        return
    index = os.path.join(base, ".kb")
    def clear():
        shutil.rmtree(index, ignore_errors=True)
    t, m, all_t = median_of(args.runs, [KB, "index", "--rebuild"], cwd=base, before=clear) if has_command("index") else (None, None, None)
    size = du(index) if os.path.exists(index) else 0
    queries = ["大标题看不见", "네비게이션 바 그림자", "太字にならない", "toolbarColorScheme not working", "UINavigationBarAppearance"]
    # In-process latency, measured by kb itself over many queries.
    _, _, out = run([KB, "search", "--bench", "2000"] + queries, cwd=base)
    inproc = json.loads(out)
    e2e = []
    for _ in range(args.runs):
        for q in queries:
            s, _, _ = run([KB, "search", q, "--limit", "5"], cwd=base)
            e2e.append(s)
    e2e.sort()
    p50 = statistics.median(e2e)
    p99 = e2e[min(len(e2e) - 1, int(len(e2e) * 0.99))]
    results["search"] = {"index_build_median_s": t, "index_runs_s": all_t, "index_peak_rss_mb": m, "index_bytes": size,
                         "in_process": inproc, "end_to_end_p50_s": p50, "end_to_end_p99_s": p99}
    print(f"kb index: median {t:.2f} s {['%.2f' % x for x in all_t]}, {size / 1e6:.1f} MB on disk, peak RSS {m:.0f} MB (target < 3 s)")
    print(f"kb search in process: p50 {inproc['p50_ms']:.3f} ms, p99 {inproc['p99_ms']:.3f} ms (target p50 < 1 ms)")
    print(f"kb search end to end (warm index): p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms (target < 50 ms)")


def bench_build(args, base, results):
    if not has_command("build"):
        print("build: skipped (kb build is not built)")
        return
    for n in sorted({1000, args.n}):
        both = corpus(n, "both")
        out = os.path.join(both, "_site")
        t, m, all_t = median_of(args.runs, [KB, "build", "--out", out], cwd=both)
        size = du(out)
        row = {"kb_build_median_s": t, "kb_runs_s": all_t, "kb_peak_rss_mb": m, "kb_bytes": size}
        line = f"N={n}: kb build median {t:.2f} s {['%.2f' % x for x in all_t]}, {m:.0f} MB peak RSS, {size / 1e6:.1f} MB output"
        if shutil.which("hugo"):
            ht, hm, hall = median_of(args.runs, ["hugo", "--quiet", "--config", "hugo.toml,hugo.nohl.toml", "--destination", "public"], cwd=both)
            row.update({"hugo_nohl_median_s": ht, "hugo_runs_s": hall, "hugo_peak_rss_mb": hm})
            line += f" | hugo (no highlighting) {ht:.2f} s, {hm:.0f} MB"
            pf = shutil.which("pagefind_extended") or shutil.which("pagefind")
            if pf:
                pt, pm, pall = median_of(max(1, args.runs // 2), [pf, "--site", "public"], cwd=both)
                row.update({"pagefind_median_s": pt, "pagefind_peak_rss_mb": pm, "pagefind_bytes": du(os.path.join(both, "public", "pagefind"))})
                line += f" | pagefind {pt:.2f} s, {pm:.0f} MB"
            else:
                line += " | pagefind: skipped (pip install 'pagefind[extended]')"
        else:
            line += " | hugo: skipped (apt-get install hugo)"
        results.setdefault("build", {})[str(n)] = row
        print(line)


if __name__ == "__main__":
    main()
