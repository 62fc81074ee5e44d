#!/usr/bin/env bash
# `make bench`: release build benchmarks on a generated corpus (see scripts/bench.py).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py --n "${1:-10000}" --runs "${BENCH_RUNS:-5}" ${BENCH_BASELINE:+--baseline "$BENCH_BASELINE"}
