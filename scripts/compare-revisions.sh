#!/usr/bin/env bash
# Checks that a range of commits leaves kb's output as it was: builds the release kb of two
# commits (scripts/build-baseline.sh) and compares, byte for byte, what they make of the
# repository's own entries and of a generated corpus (scripts/compare-outputs.sh: the site of
# `kb build --clean` and `.kb/index`).
#
#   scripts/compare-revisions.sh OLD_REV NEW_REV [N]
#
# N is the size of the generated corpus (default 10000; ../shared/bench/gen_corpus.py, the corpus
# `make bench` uses, kept in /tmp/kb-bench-N-both). NEW_REV may be `.`: the working tree's release
# build (`make build`). Exits 0 when every output is identical, 1 when one differs.
#
# A refactor is checked this way (ARCHITECTURE.md, "Invariants"). When a range also holds
# deliberate output changes, it is cut at the merges that bring them, and each side is compared.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 OLD_REV NEW_REV [N]" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
n=${3:-10000}
old=$(scripts/build-baseline.sh "$1")
if [ "$2" = . ]; then
    make --no-print-directory build >&2
    new=.build/release/kb
else
    new=$(scripts/build-baseline.sh "$2")
fi
corpus=/tmp/kb-bench-$n-both
if [ ! -e "$corpus/.done" ]; then
    rm -rf "$corpus"
    python3 ../shared/bench/gen_corpus.py --n "$n" --out "$corpus" --layout both > /dev/null
    touch "$corpus/.done"
fi
status=0
for root in . "$corpus"; do
    scripts/compare-outputs.sh "$old" "$new" "$root" || status=1
done
exit $status
