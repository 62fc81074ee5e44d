#!/usr/bin/env python3
"""Benchmarks kb on a generated corpus, side by side with the anchors named in the issues.

Usage: scripts/bench.py [--n 10000] [--runs 5] [--only lint,search,build,bytes]
Prints medians of several runs (the machine is shared and noisy), with CPU time (user + sys)
beside wall time, and writes bench-out/results.json.

- lint: kb lint over the corpus (and the cmark CLI over the same files).
- search: kb index --rebuild (time, CPU, peak RSS, size of .kb/index), in-process query
  latency (kb search --bench), end to end (kb search as a process, warm index), both without a
  search server (every entry file checked) and with one (kb index --watch); the target row is
  what kb does by default at that size (a server from 20,000 entries on).
- build: kb build for 1,000 and --n entries (time, CPU, peak RSS, output size) beside Hugo
  without highlighting (hugo.nohl.toml) and Pagefind-extended over Hugo's output; every build
  into a new folder on a fresh ext4 file system when it can make one (OutputFileSystem says
  why), and kb's rebuilds over a previous site last.
- bytes: what a browser loads for one query on kb's site and with Pagefind on the same corpus
  (scripts/query_bytes.mjs: files requested for the query and its first 10 results; on disk and
  gzip-compressed as a web server would send them).
"""
import argparse
import re, glob, gzip, importlib.util, json, os, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KB = os.path.join(ROOT, ".build/release/kb")
SITE_ASSETS = os.path.join(ROOT, "site")
GEN = os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py")


LAST_CPU = [0.0]


def run(cmd, cwd=None, env=None, ok=(0, 1)):
    """Runs a command under /usr/bin/time; returns (wall seconds, peak RSS in MB, stdout); the CPU
    seconds (user + sys) of the run are left in LAST_CPU[0]. Wall time is taken with a
    monotonic clock around the run (/usr/bin/time's own is rounded to 10 ms)."""
    full = ["/usr/bin/time", "-f", "%e %M %U %S"] + cmd
    start = time.perf_counter()
    proc = subprocess.run(full, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    last = proc.stderr.strip().splitlines()[-1].split()
    if proc.returncode not in ok:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    LAST_CPU[0] = float(last[2]) + float(last[3])
    return wall, int(last[1]) / 1024, proc.stdout


def median_of(runs, cmd, cwd=None, before=None, env=None, ok=(0, 1), cpu=None):
    """Median wall seconds, max peak RSS (MB) and all wall times; `cpu` (a list) receives the CPU seconds."""
    times, rss = [], []
    for _ in range(runs):
        if before:
            before()
        t, m, _ = run(cmd, cwd=cwd, env=env, ok=ok)
        times.append(t)
        rss.append(m)
        if cpu is not None:
            cpu.append(LAST_CPU[0])
    return statistics.median(times), max(rss), times


def tree(path):
    """(files, bytes) under `path`."""
    files = total = 0
    for base, _, names in os.walk(path):
        for name in names:
            files += 1
            total += os.path.getsize(os.path.join(base, name))
    return files, total


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
    parser.add_argument("--only", default="lint,search,build,bytes")
    parser.add_argument("--baseline", default=os.environ.get("BENCH_BASELINE") or None,
                        help="another kb binary (e.g. a release build of an earlier commit, made by "
                             "scripts/build-baseline.sh): compare outputs and time both side by side")
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

    if "search" in parts:
        bench_search(args, base, results)
    if "build" in parts:
        bench_build(args, base, results)  # measures the bytes per query too, on the sites it built
    elif "bytes" in parts:
        bench_bytes(args, base, results)

    if args.baseline:
        bench_baseline(args, results)

    results["entries_markdown_bytes"] = size
    print_search_scale_table(args, results)
    os.makedirs(os.path.join(ROOT, "bench-out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench-out", "results.json"), "w") as f:
        json.dump(results, f, indent=2)


def bench_baseline(args, results):
    """The baseline binary and this one on the same corpus (both layouts, the repository's theme):
    outputs compared byte for byte and kb build / lint / index --rebuild / search timed in
    alternating runs (scripts/compare-outputs.sh), with the ratio to the baseline."""
    both = corpus(args.n, "both")
    proc = subprocess.run(["scripts/compare-outputs.sh", args.baseline, KB, both], cwd=ROOT,
                          env=dict(os.environ, RUNS=str(max(3, args.runs)), KB_SITE=os.path.join(ROOT, "site")),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timings = {}
    for line in proc.stdout.splitlines():
        match = re.match(r"time: kb (\w+) \((old|new)\): median ([0-9.]+) s", line)
        if match:
            timings.setdefault(match.group(1), {})[match.group(2)] = float(match.group(3))
        elif not line.startswith("time:"):
            print("baseline: " + line)
    identical = proc.returncode == 0
    print(f"\nSide by side with the baseline {args.baseline} (medians of {max(3, args.runs)}, alternating runs); "
          f"outputs byte-identical: {'yes' if identical else 'NO'}")
    print(f"| command | baseline | this build | ratio | within 5 % |")
    print(f"|---|---|---|---|---|")
    rows = {}
    for what, t in timings.items():
        if "old" in t and "new" in t and t["old"] > 0:
            ratio = t["new"] / t["old"]
            rows[what] = {"baseline_s": t["old"], "this_s": t["new"], "ratio": ratio}
            print(f"| kb {what} | {t['old']:.3f} s | {t['new']:.3f} s | {ratio:.3f} | {'yes' if ratio <= 1.05 else 'no'} |")
    results["baseline"] = {"binary": args.baseline, "identical": identical, "timings": rows}


def has_command(name):
    proc = subprocess.run([KB, "help", name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc.returncode == 0


def bench_search(args, base, results):
    if not has_command("search"):
        print("search: skipped (kb search is not built)")
        return
    index = os.path.join(base, ".kb")
    def stop_server():
        subprocess.run([KB, "index", "--stop"], cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def clear():
        stop_server()  # one a previous search started would lose its socket with the folder
        shutil.rmtree(index, ignore_errors=True)
    cpu = []
    t, m, all_t = median_of(args.runs, [KB, "index", "--rebuild"], cwd=base, before=clear, ok=(0,), cpu=cpu)
    size = du(os.path.join(index, "index")) if os.path.exists(index) else 0
    queries = ["大标题看不见", "네비게이션 바 그림자", "太字にならない", "toolbarColorScheme not working", "UINavigationBarAppearance"]
    # In-process latency, measured by kb itself over many queries (postings decoded on first use).
    _, _, out = run([KB, "search", "--bench", "2000", "|".join(queries)], cwd=base, ok=(0,))
    inproc = json.loads(out)

    def end_to_end(server):
        """kb search as a process, every query --runs times: with the search server (one started
        with `kb index --watch` first) or without (KB_SEARCH_SERVER=off: the check of every entry file)."""
        env = dict(os.environ, KB_SEARCH_SERVER="on" if server else "off")
        watcher = None
        if server:
            watcher = subprocess.Popen([KB, "index", "--watch"], cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.time() + 300
            while subprocess.run([KB, "index", "--status"], cwd=base, stdout=subprocess.DEVNULL).returncode != 0:
                if watcher.poll() is not None or time.time() > deadline:
                    sys.exit("kb index --watch did not start")
                time.sleep(0.1)
        e2e, e2e_cpu, e2e_rss = [], [], []
        for _ in range(args.runs):
            for q in queries:
                s, r, _ = run([KB, "search", q, "--limit", "5"], cwd=base, env=env)
                e2e.append(s)
                e2e_cpu.append(LAST_CPU[0])
                e2e_rss.append(r)
        if watcher:
            stop_server()
            watcher.wait(timeout=60)
        e2e.sort()
        return {"p50_s": statistics.median(e2e), "p99_s": e2e[min(len(e2e) - 1, int(len(e2e) * 0.99))],
                "cpu_median_s": statistics.median(e2e_cpu), "peak_rss_mb": max(e2e_rss)}

    without, with_server = end_to_end(False), end_to_end(True)
    # What a user gets by default: kb search starts a server from 20,000 entries on (KB_SEARCH_SERVER=auto).
    default_server = args.n >= 20000
    default = with_server if default_server else without
    results["search"] = {"index_build_median_s": t, "index_runs_s": all_t, "index_cpu_median_s": statistics.median(cpu),
                         "index_peak_rss_mb": m, "index_bytes": size, "in_process": inproc,
                         "end_to_end_default": "search server" if default_server else "no server",
                         "end_to_end_p50_s": default["p50_s"], "end_to_end_p99_s": default["p99_s"],
                         "end_to_end_cpu_median_s": default["cpu_median_s"], "end_to_end_peak_rss_mb": default["peak_rss_mb"],
                         "end_to_end_no_server": without, "end_to_end_search_server": with_server}
    print(f"kb index: median {t:.2f} s {['%.2f' % x for x in all_t]} (CPU {statistics.median(cpu):.2f} s), "
          f"{size / 1e6:.1f} MB on disk, peak RSS {m:.0f} MB (target < 3 s)")
    print(f"kb search in process: p50 {inproc['p50_ms']:.3f} ms, p99 {inproc['p99_ms']:.3f} ms (target p50 < 1 ms)")
    for name, e in (("no server, every entry file checked", without), ("search server (kb index --watch)", with_server)):
        print(f"kb search end to end (warm index, {name}): p50 {e['p50_s'] * 1000:.1f} ms, p99 {e['p99_s'] * 1000:.1f} ms, "
              f"CPU of kb search {e['cpu_median_s'] * 1000:.0f} ms, peak RSS {e['peak_rss_mb']:.0f} MB (target < 50 ms)")
    print(f"  by default at {args.n} entries: {results['search']['end_to_end_default']}")


def pagefind_binary():
    """pagefind_extended from PATH or from the pip package `pagefind[extended]`."""
    found = shutil.which("pagefind_extended")
    if found:
        return found
    spec = importlib.util.find_spec("pagefind_bin_extended")
    if spec and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            candidate = os.path.join(folder, "pagefind_extended")
            if os.path.exists(candidate):
                return candidate
    return shutil.which("pagefind")


class OutputFileSystem:
    """Where the timed site builds write: a fresh ext4 file system (a loop-mounted image made for
    the run, with mkfs.ext4's defaults but its tables written up front) when the bench runs as root and can mount one, else the
    corpus folder's own file system.

    Why: the ext4 here (/tmp) has no journal, and without a journal ext4 will not reuse an inode
    within 60 s of its deletion (within 6 minutes while its inode table block is dirty), so every
    file created meanwhile scans past such inodes (the kernel's `recently_deleted`). How fast a
    build creates its files then depends on what was deleted in the minutes before it (an earlier
    bench's clean-up, a test run), not on the tool. A fresh file system gives both tools the same
    clean start, and nothing is deleted on it until every timed run is done."""

    IMAGE, MOUNT = "/tmp/kb-bench-fs.img", "/tmp/kb-bench-fs"

    def __init__(self, n=10000):
        self.root, self.mounted, self.note = None, False, ""
        # 16 GB up to 10,000 entries; more for larger corpora, whose sites are larger and have
        # more files (the image is sparse: only what is written takes room on the disk).
        self.size_gb = max(16, 16 * n // 10000 // 2)

    def __enter__(self):
        why = None
        if os.geteuid() != 0:
            why = "not root"
        elif not (shutil.which("mkfs.ext4") and shutil.which("mount")):
            why = "mkfs.ext4 or mount missing"
        else:
            subprocess.run(["umount", self.MOUNT], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.makedirs(self.MOUNT, exist_ok=True)
            # Inode tables and journal are written now, not by the kernel in the background
            # after mounting (lazy init), which would compete with the first timed runs.
            # 16 GB at 10,000 entries (a sparse file): room, and inodes, for every build of a run
            # with --runs 9 or more (each kind of build is kept until all are timed; 8 GB ran out
            # of inodes); 80 GB at 100,000 entries, whose kb, Hugo and Pagefind outputs are ten
            # times as large.
            made = (subprocess.run(["truncate", "-s", f"{self.size_gb}G", self.IMAGE]).returncode == 0
                    and subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", self.IMAGE],
                                       stdout=subprocess.DEVNULL).returncode == 0
                    and subprocess.run(["mount", "-o", "loop", self.IMAGE, self.MOUNT], stderr=subprocess.DEVNULL).returncode == 0)
            if made:
                self.root, self.mounted = self.MOUNT, True
                self.note = (f"a fresh ext4 file system (loop-mounted {self.size_gb} GB image, mkfs.ext4 defaults, "
                             "tables initialised up front)")
                return self
            why = "could not make and mount an ext4 image"
            if os.path.exists(self.IMAGE):
                os.remove(self.IMAGE)
        self.note = f"the corpus folder's file system ({why})"
        return self

    def folder(self, both, name):
        """A new output folder `name` for the corpus at `both` (not created: the tools make it)."""
        parent = os.path.join(both, "bench-out") if self.root is None else os.path.join(self.root, os.path.basename(both))
        os.makedirs(parent, exist_ok=True)
        return os.path.join(parent, name)

    def __exit__(self, *exc):
        if self.mounted:
            subprocess.run(["umount", self.MOUNT])
            os.remove(self.IMAGE)
        elif self.root is None:
            for n in (1000, 10000):
                shutil.rmtree(f"/tmp/kb-bench-{n}-both/bench-out", ignore_errors=True)
        return False


def settle():
    """Writes back everything (so no run pays for an earlier one's writeback) and lets the disk settle."""
    os.sync()
    time.sleep(3)


def bench_build(args, base, results):
    """Site builds (and, on the sites they made, the bytes a query loads) on `OutputFileSystem`."""
    if not has_command("build"):
        print("build: skipped (kb build is not built)")
        return
    with OutputFileSystem(args.n) as fs:
        print(f"build outputs: {fs.note}")
        results["build_output_file_system"] = fs.note
        bench_build_sizes(args, results, fs)
        bench_incremental(args, results, fs)
        if "bytes" in args.only.split(","):
            bench_bytes(args, base, results, sites=results.get("sites", {}).get(str(args.n)))
    results.pop("sites", None)  # folders of a file system that is gone now


def bench_build_sizes(args, results, fs):
    env = dict(os.environ, KB_SITE=SITE_ASSETS)
    pf = pagefind_binary()
    sizes = sorted({1000, args.n})
    # Every build goes into a folder of its own that does not exist yet (Hugo is run the same
    # way), and nothing is deleted until all of them are timed: the rebuilds over a previous
    # site, which delete it, come last, for every size.
    for n in sizes:
        both = corpus(n, "both")
        count = [0]

        def timed(tool, command_for):
            cpu, times, rss, outs = [], [], [], []
            for _ in range(args.runs):
                settle()
                count[0] += 1
                out = fs.folder(both, f"{tool}-{count[0]}")
                t, m, _ = run(command_for(out), cwd=both, env=env, ok=(0,))
                times.append(t)
                rss.append(m)
                cpu.append(LAST_CPU[0])
                outs.append(out)
            return statistics.median(times), max(rss), times, statistics.median(cpu), outs

        t, m, all_t, c, outs = timed("kb", lambda out: [KB, "build", "--out", out])
        size = du(outs[-1])
        site_files, _ = tree(outs[-1])
        search_files, search_bytes = tree(os.path.join(outs[-1], "search"))
        row = {"kb_build_median_s": t, "kb_runs_s": all_t, "kb_cpu_median_s": c, "kb_peak_rss_mb": m, "kb_bytes": size,
               "kb_files": site_files, "kb_search_files": search_files, "kb_search_bytes": search_bytes}
        results.setdefault("sites", {})[str(n)] = {"kb": outs[-1]}
        line = (f"N={n}: kb build (pages + search) median {t:.2f} s {['%.2f' % x for x in all_t]}, CPU {c:.2f} s, "
                f"{m:.0f} MB peak RSS, {size / 1e6:.1f} MB output")
        if shutil.which("hugo"):
            ht, hm, hall, hc, houts = timed("hugo", lambda out: ["hugo", "--quiet", "--config", "hugo.toml,hugo.nohl.toml",
                                                                 "--destination", out])
            public = houts[-1]
            row.update({"hugo_nohl_median_s": ht, "hugo_runs_s": hall, "hugo_cpu_median_s": hc,
                        "hugo_peak_rss_mb": hm, "hugo_bytes": du(public), "hugo_files": tree(public)[0]})
            line += (f"\n         hugo (no highlighting, pages only) {ht:.2f} s {['%.2f' % x for x in hall]}, CPU {hc:.2f} s, "
                     f"{hm:.0f} MB, {du(public) / 1e6:.1f} MB | kb/hugo time {t / ht:.2f} (target <= 0.5), memory {m / hm:.2f} (target < 1)")
            if pf:
                pcpu = []
                pt, pm, pall = median_of(max(1, args.runs // 2), [pf, "--site", public], cwd=both, ok=(0,), cpu=pcpu)
                pf_files, pf_bytes = tree(os.path.join(public, "pagefind"))
                row.update({"pagefind_median_s": pt, "pagefind_cpu_median_s": statistics.median(pcpu), "pagefind_peak_rss_mb": pm,
                            "pagefind_bytes": pf_bytes, "pagefind_files": pf_files})
                results["sites"][str(n)]["pagefind"] = public
                line += (f"\n         pagefind over hugo's output {pt:.2f} s, CPU {statistics.median(pcpu):.2f} s, {pm:.0f} MB, "
                         f"{du(os.path.join(public, 'pagefind')) / 1e6:.1f} MB index")
            else:
                line += " | pagefind: skipped (pip install 'pagefind[extended]')"
        else:
            line += " | hugo: skipped (apt-get install hugo)"
        results.setdefault("build", {})[str(n)] = row
        print(line, flush=True)
    for n in sizes:
        # Over the previous site: the new one is staged, swapped in and the old one deleted (by
        # kb, so this includes the deletion and what it costs the next creations).
        both = corpus(n, "both")
        rcpu = []
        rt, rm, rall = median_of(args.runs, [KB, "build", "--clean", "--out", results["sites"][str(n)]["kb"]], cwd=both, env=env,
                                 before=os.sync, ok=(0,), cpu=rcpu)
        results["build"][str(n)].update({"kb_rebuild_median_s": rt, "kb_rebuild_runs_s": rall,
                                         "kb_rebuild_cpu_median_s": statistics.median(rcpu)})
        print(f"N={n}: kb build over the previous site (stage, swap, delete the old one) {rt:.2f} s "
              f"{['%.2f' % x for x in rall]}, CPU {statistics.median(rcpu):.2f} s", flush=True)


def tree_bytes(root):
    """Every file under `root` by relative path with its bytes, the build manifest left out (it
    holds the input files' stamps, which differ between builds made at different times)."""
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if rel != ".kb-build":
                with open(path, "rb") as f:
                    files[rel] = f.read()
    return files


def bench_incremental(args, results, fs):
    """kb build over its own site after a one-entry edit (the incremental build), beside the clean
    build of the same corpus measured above, for two kinds of edit: the title (the entry's page,
    the lists and symptom pages that show it, the search files of the title's words), and the
    title with a sentence added to the body (the search files of the sentence's words change;
    those of the entry's other body words change only in a run whose sentence moves the body's
    length into another bucket: each record carries the code of its field's quantized length,
    docs/search.md §3.1). Then a clean build of the edited corpus, which the incremental output
    must equal byte for byte."""
    n = args.n
    row = results.get("build", {}).get(str(n))
    if not row:
        return
    both = corpus(n, "both")
    env = dict(os.environ, KB_SITE=SITE_ASSETS)
    site = fs.folder(both, "kb-incremental")
    run([KB, "build", "--out", site], cwd=both, env=env, ok=(0,))
    entry = os.path.join(both, "entries", f"kb-{n // 2:06d}", "entry.md")
    with open(entry, encoding="utf-8") as f:
        original = f.read()
    runs = max(3, args.runs)
    # Each run's edit differs from the one before it in length too (one more word in the title,
    # one more sentence in the body), as real edits do: every record of the entry in that field
    # carries the code of the field's length, exact for a title (so all the search files of the
    # title's words change) and a bucket 6-12 % wide for a long body (so the files of the body's
    # words change only in the runs where the body crosses into another bucket).
    edits = [("title", lambda k: original.replace('title: "', 'title: "' + "Edited " * (k + 1), 1)),
             ("title and body", lambda k: original.replace('title: "', 'title: "' + "Revised " * (k + 1), 1)
              + "".join(f"\nObservation {j}: the bar stays transparent.\n" for j in range(k + 1)))]
    clean_s = row["kb_build_median_s"]
    differing = []
    try:
        for name, edit in edits:
            times, cpu = [], []
            for k in range(runs):
                with open(entry, "w", encoding="utf-8") as f:
                    f.write(edit(k))
                # Nothing of an earlier build's writeback is left to slow this one down, and the
                # edit is older than the two seconds in which kb does not trust a file's stamp.
                os.sync()
                time.sleep(2.1)
                t, _, out = run([KB, "build", "--out", site], cwd=both, env=env, ok=(0,))
                if not out.startswith("Updated "):
                    sys.exit(f"the build after a one-entry edit was not incremental: {out.strip()}")
                times.append(t)
                cpu.append(LAST_CPU[0])
            t = statistics.median(times)
            key = "kb_incremental_" + name.replace(" ", "_")
            row.update({key + "_median_s": t, key + "_runs_s": times, key + "_cpu_median_s": statistics.median(cpu),
                        key + "_share_of_clean": t / clean_s})
            print(f"N={n}: kb build after a one-entry edit ({name}; incremental) median {t:.3f} s {['%.3f' % x for x in times]}, "
                  f"CPU {statistics.median(cpu):.2f} s = {t / clean_s * 100:.1f} % of the clean build's {clean_s:.2f} s (target < 5 %)",
                  flush=True)
            written = out.split("(")[1].split(")")[0] if "(" in out else ""
            print(f"         last run: {written}", flush=True)
        clean = fs.folder(both, "kb-incremental-clean")
        run([KB, "build", "--clean", "--out", clean], cwd=both, env=env, ok=(0,))
        a, b = tree_bytes(site), tree_bytes(clean)
        differing = sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
    finally:
        with open(entry, "w", encoding="utf-8") as f:
            f.write(original)
    row["kb_incremental_equals_clean"] = not differing
    print(f"N={n}: the incremental site equals a clean build of the edited corpus: "
          f"{'yes (every file, byte for byte; the build manifest aside)' if not differing else 'NO: ' + ', '.join(differing[:5])}", flush=True)
    if differing:
        sys.exit("the incremental build's output differs from a clean build's")


# Queries per corpus language (Pagefind searches the index of the page's language).
BYTE_QUERIES = [("zh-hans", "导航栏 标题 颜色"), ("zh-hans", "toolbarColorScheme 不生效"), ("ko", "네비게이션 바 그림자"),
                ("ja", "太字にならない"), ("ja", "キーボード 隠れる")]


def bench_bytes(args, base, results, sites=None):
    """Bytes loaded for one query (first 10 results shown) on the --n corpus: on the sites the
    build part made (`sites`), else on sites built here (in the corpus folder)."""
    both = corpus(args.n, "both")
    site = (sites or {}).get("kb") or os.path.join(both, "_site")
    public = (sites or {}).get("pagefind") or os.path.join(both, "public")
    if not os.path.exists(os.path.join(site, "search", "meta.js")):
        subprocess.run([KB, "build", "--out", site], cwd=both, env=dict(os.environ, KB_SITE=SITE_ASSETS), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = os.path.join(ROOT, "scripts", "query_bytes.mjs")
    has_pagefind = os.path.exists(os.path.join(public, "pagefind", "pagefind.js"))

    def measure(cmd):
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        row["gzip_bytes"] = sum(len(gzip.compress(open(f, "rb").read(), 6)) for f in row["files"])
        return row

    rows = []
    print(f"bytes loaded for one query, first 10 results (N={args.n}; on disk / gzip):")
    for lang, q in BYTE_QUERIES:
        k = measure(["node", script, "kb", site, "10", q])
        row = {"query": q, "kb_bytes": k["bytes"], "kb_gzip_bytes": k["gzip_bytes"], "kb_files": len(k["files"]), "kb_results": k["results"]}
        line = f"  {q}: kb {k['bytes'] / 1e3:.0f} KB / {k['gzip_bytes'] / 1e3:.0f} KB in {len(k['files'])} files"
        if has_pagefind:
            p = measure(["node", script, "pagefind", public, lang, "10", q])
            row.update({"pagefind_bytes": p["bytes"], "pagefind_gzip_bytes": p["gzip_bytes"], "pagefind_files": len(p["files"]),
                        "pagefind_results": p["results"]})
            line += (f" | pagefind {p['bytes'] / 1e3:.0f} KB / {p['gzip_bytes'] / 1e3:.0f} KB in {len(p['files'])} files"
                     f" | kb/pagefind {k['bytes'] / p['bytes']:.2f}")
        else:
            line += " | pagefind: skipped (run the build part with hugo and pagefind first)"
        rows.append(row)
        print(line)
    results["bytes_per_query"] = rows


def print_search_scale_table(args, results):
    """The search-at-scale measures side by side with their anchors and targets, from the rows
    measured above (a row whose part did not run says so)."""
    n = str(args.n)
    build = results.get("build", {}).get(n, {})
    search = results.get("search", {})
    per_query = results.get("bytes_per_query", [])
    mb = lambda b: f"{b / 1e6:.1f} MB"
    rows = []
    if build:
        pf = f"{build['pagefind_files']:,} files, {mb(build['pagefind_bytes'])}" if "pagefind_bytes" in build else "pagefind not run"
        met = "yes" if "pagefind_bytes" in build and build["kb_search_bytes"] <= build["pagefind_bytes"] else "no"
        rows.append(("web search files", f"{build['kb_search_files']:,} files, {mb(build['kb_search_bytes'])}",
                     f"<= pagefind-extended ({pf})", met if "pagefind_bytes" in build else "?"))
        hugo = f"hugo {build['hugo_files']:,}" if "hugo_files" in build else "hugo not run"
        rows.append(("files the site writes", f"{build['kb_files']:,} ({build['kb_files'] / args.n:.2f} per entry)",
                     f"<= {int(1.3 * args.n):,} (1.3 per entry; {hugo})", "yes" if build["kb_files"] <= 1.3 * args.n else "no"))
        rows.append(("kb build peak RSS", f"{build['kb_peak_rss_mb']:.0f} MB, {build['kb_build_median_s']:.2f} s", "< 2,000 MB",
                     "yes" if build["kb_peak_rss_mb"] < 2000 else "no"))
    else:
        rows.append(("site rows", "build part not run", "", "?"))
    for q in per_query:
        if "pagefind_gzip_bytes" in q:
            rows.append((f"bytes per query (gzip): {q['query']}", f"{q['kb_gzip_bytes'] / 1e3:.0f} KB",
                         f"< pagefind {q['pagefind_gzip_bytes'] / 1e3:.0f} KB", "yes" if q["kb_gzip_bytes"] < q["pagefind_gzip_bytes"] else "no"))
        else:
            rows.append((f"bytes per query (gzip): {q['query']}", f"{q['kb_gzip_bytes'] / 1e3:.0f} KB", "pagefind not run", "?"))
    if search:
        limit = 0.5 * results["entries_markdown_bytes"]
        rows.append((".kb/index size", mb(search["index_bytes"]), f"<= 0.5 x the entries ({mb(limit)})",
                     "yes" if search["index_bytes"] <= limit else "no"))
        rows.append(("kb index peak RSS", f"{search['index_peak_rss_mb']:.0f} MB, {search['index_build_median_s']:.2f} s", "< 2,000 MB",
                     "yes" if search["index_peak_rss_mb"] < 2000 else "no"))
        rows.append((f"kb search end to end (warm, {search.get('end_to_end_default', 'no server')})",
                     f"p50 {search['end_to_end_p50_s'] * 1000:.0f} ms", "p50 < 50 ms",
                     "yes" if search["end_to_end_p50_s"] < 0.05 else "no"))
        for key, name in (("end_to_end_no_server", "no server"), ("end_to_end_search_server", "search server")):
            if key in search and name != search.get("end_to_end_default"):
                rows.append((f"  (kb search warm, {name})", f"p50 {search[key]['p50_s'] * 1000:.0f} ms", "(not the default here)", "-"))
    else:
        rows.append(("search rows", "search part not run", "", "?"))
    print(f"\nsearch at scale, N={args.n} (medians of {args.runs}):")
    width = max(len(r[0]) for r in rows)
    for name, now, target, met in rows:
        print(f"  {name.ljust(width)}  {now:<34} target {target:<44} met: {met}")


if __name__ == "__main__":
    main()
