#!/usr/bin/env bash
# Compares what two kb binaries make of one knowledge base: the site of `kb build --clean` (diff -r;
# the build manifest field by field, its fingerprint of the kb executable aside) and `.kb/index`
# of `kb index --rebuild` (cmp per file). Both binaries run on the same copy of the
# corpus, at the same paths, one after the other, so paths and file stamps cannot differ.
#
#   scripts/compare-outputs.sh OLD_KB NEW_KB CORPUS
#
# CORPUS is a knowledge base root (a folder with `entries/`, with or without kb.yaml). The theme
# is the repository's `site/` (KB_SITE), as `make bench` does. Environment:
#   CHECK_REPORT=FILE  copy FILE to the copy's `.kb/check-report.json` before building, so both
#                      builds read the same check report (e.g. one `kb check` wrote)
#   RUNS=N             also time `kb build --clean`, `kb lint`, `kb index --rebuild` and a warm
#                      `kb search` (each binary over an index of its own) N times per binary,
#                      alternating (median)
#   WORK=DIR           where the copy and the outputs go (default: a new temporary folder, removed)
# Exits 0 when both outputs are byte-identical, 1 when they differ.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 OLD_KB NEW_KB CORPUS" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
corpus=$(realpath "$3")
repo=$(cd "$(dirname "$0")/.." && pwd)
export KB_SITE="${KB_SITE:-$repo/site}"

if [ -n "${WORK:-}" ]; then
    work=$WORK
    mkdir -p "$work"
else
    work=$(mktemp -d /tmp/kb-compare.XXXXXX)
    trap 'rm -rf "$work"' EXIT
fi

# The copy: the entries, kb.yaml and the theme folder (no generated folders).
copy="$work/corpus"
rm -rf "$copy"
mkdir -p "$copy"
for name in entries kb.yaml site; do
    [ -e "$corpus/$name" ] && cp -a "$corpus/$name" "$copy/"
done
if [ -n "${CHECK_REPORT:-}" ]; then
    mkdir -p "$copy/.kb"
    cp "$CHECK_REPORT" "$copy/.kb/check-report.json"
fi
echo "corpus: $corpus ($(find "$copy/entries" -name entry.md | wc -l) entries), theme: $KB_SITE"

status=0
for side in old new; do
    kb=$old
    [ "$side" = new ] && kb=$new
    rm -rf "$work/out" "$copy/.kb/index"
    (cd "$copy" && "$kb" build --clean --out "$work/out" > "$work/build-$side.log" 2>&1) || {
        echo "$side: kb build failed (exit $?):"; tail -5 "$work/build-$side.log"; status=1; }
    rm -rf "$work/site-$side"
    [ -d "$work/out" ] && mv "$work/out" "$work/site-$side"
    (cd "$copy" && "$kb" index --rebuild > "$work/index-$side.log" 2>&1) || {
        echo "$side: kb index failed (exit $?):"; tail -5 "$work/index-$side.log"; status=1; }
    rm -rf "$work/index-$side"
    [ -d "$copy/.kb/index" ] && cp -a "$copy/.kb/index" "$work/index-$side"
done

if diff -r --exclude=.kb-build "$work/site-old" "$work/site-new" > "$work/site.diff" 2>&1; then
    echo "site: identical ($(find "$work/site-new" -type f | wc -l) files, $(du -sh "$work/site-new" | cut -f1))"
else
    echo "site: DIFFERENT ($(wc -l < "$work/site.diff") lines of diff -r, first ones below)"
    head -20 "$work/site.diff"
    status=1
fi
# The build manifest (.kb-build) holds a fingerprint that includes the kb executable's size and
# stamps (BuildFingerprint), so it differs between two binaries by design: everything else in it
# (header, entries folder stamp, known ids, search state, entry records) must be identical, unless
# the two binaries write different versions of its layout (then it is not compared).
python3 - "$work/site-old/.kb-build" "$work/site-new/.kb-build" <<'PY' || status=1
import sys

def leb128(b, i):
    value, shift = 0, 0
    while True:
        byte = b[i]; i += 1
        value |= (byte & 0x7F) << shift; shift += 7
        if byte < 0x80:
            return value, i

def parts(path):
    b = open(path, "rb").read()
    line = b.index(b"\n") + 1
    size, i = leb128(b, line)
    head = b[i:i + size - 8]            # the head without its checksum
    length, j = leb128(head, 0)         # the fingerprint is the head's first string
    return b[:line], head[j:j + length], head[j + length:], b[i + size:]

old, new = parts(sys.argv[1]), parts(sys.argv[2])
if old[0] != new[0]:
    # Another version of the manifest's layout (BuildManifest.version): a private cache of the
    # build, read only by the kb that wrote it, so there is nothing to compare.
    print("build manifest: not compared, the layouts differ (%s, %s)" % (old[0].decode().strip(), new[0].decode().strip()))
    sys.exit(0)
same = old[2] == new[2] and old[3] == new[3]
print("build manifest: %s apart from the fingerprint (%s, %s)" % (
    "identical" if same else "DIFFERENT", old[1].decode(), new[1].decode()))
sys.exit(0 if same else 1)
PY
index_same=1
unversioned=""
# The index manifest (manifest.tsv, SearchIndexStore.Manifest) records which entry files the index
# was made from. Its `#scan-time` line is when the scan ran: it differs between any two runs, so it
# is left out of the comparison. Like the build manifest, it is a private record read only by the
# kb that wrote it: when its first line (the layout's version) differs, it is not compared.
same_index_file() {
    case "$1" in
        manifest.tsv) cmp -s <(grep -v '^#scan-time ' "$work/index-old/$1") <(grep -v '^#scan-time ' "$work/index-new/$1") ;;
        *) cmp -s "$work/index-old/$1" "$work/index-new/$1" ;;
    esac
}
for name in $( (ls "$work/index-old"; ls "$work/index-new") | sort -u); do
    if [ "$name" = manifest.tsv ] && [ -f "$work/index-old/$name" ] && [ -f "$work/index-new/$name" ] \
        && [ "$(head -1 "$work/index-old/$name")" != "$(head -1 "$work/index-new/$name")" ]; then
        unversioned=" (manifest.tsv not compared, the layouts differ: $(head -1 "$work/index-old/$name"), $(head -1 "$work/index-new/$name"))"
    elif ! same_index_file "$name"; then
        echo "index: $name DIFFERENT"
        index_same=0
    fi
done
if [ "$index_same" = 1 ]; then
    echo "index: identical ($(ls "$work/index-new" | tr '\n' ' ')apart from manifest.tsv's #scan-time)$unversioned"
else
    status=1
fi

if [ -n "${RUNS:-}" ]; then
    # Runs alternate between the binaries, so a change in the machine's load hits both alike.
    median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    seconds() {
        local start end
        start=$(date +%s.%N)
        (cd "$copy" && "$@" > /dev/null 2>&1) || true
        end=$(date +%s.%N)
        awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
    }
    # The command of each measurement (the search runs over the index the index run left).
    command_for() {
        case "$1" in
            build) echo "build --clean --out $work/timed" ;;
            lint) echo "lint entries" ;;
            index) echo "index --rebuild" ;;
            search) echo "search navigation --limit 5" ;;
        esac
    }
    # Each binary searches its own warm index (KB_CACHE): an index the other one wrote may have
    # another format or fingerprint, and would be rebuilt on every run.
    for side in old new; do
        kb=$old
        [ "$side" = new ] && kb=$new
        (cd "$copy" && KB_CACHE="$work/cache-$side" "$kb" index > /dev/null 2>&1) || true
    done
    for what in build lint index search; do
        old_times=(); new_times=()
        for _ in $(seq "$RUNS"); do
            # shellcheck disable=SC2046
            old_times+=("$(KB_CACHE="$work/cache-old" seconds "$old" $(command_for "$what"))")
            # shellcheck disable=SC2046
            new_times+=("$(KB_CACHE="$work/cache-new" seconds "$new" $(command_for "$what"))")
        done
        echo "time: kb $what (old): median $(printf '%s\n' "${old_times[@]}" | median) s of ${old_times[*]}"
        echo "time: kb $what (new): median $(printf '%s\n' "${new_times[@]}" | median) s of ${new_times[*]}"
    done
    rm -rf "$work/timed" "$work/cache-old" "$work/cache-new"
fi
exit $status
