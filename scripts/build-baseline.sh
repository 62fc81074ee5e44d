#!/usr/bin/env bash
# Builds the release kb of an earlier commit, for `make bench BENCH_BASELINE=...` (outputs compared
# byte for byte, times side by side) and scripts/compare-outputs.sh.
#
#   scripts/build-baseline.sh REV    → prints the path of the binary (bench-out/kb-<short rev>)
#
# The commit is checked out in a temporary git worktree, built there, and the worktree removed.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 REV" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
repo=$(pwd)
rev=$(git rev-parse --short "$1^{commit}")
out="$repo/bench-out/kb-$rev"
if [ -x "$out" ]; then
    echo "$out"
    exit 0
fi
mkdir -p "$repo/bench-out"
tree=$(mktemp -d /tmp/kb-baseline.XXXXXX)
trap 'git -C "$repo" worktree remove --force "$tree" > /dev/null 2>&1 || rm -rf "$tree"' EXIT
git worktree add --detach "$tree" "$rev" > /dev/null 2>&1
# Built as `make build` builds kb (Makefile, RELEASE_BUILD), so times compare alike.
(cd "$tree" && swift build -c release --product kb --static-swift-stdlib >&2)
cp "$tree/.build/release/kb" "$out.partial"
mv "$out.partial" "$out"
echo "$out"
