#!/usr/bin/env bash
# Builds and runs the libFuzzer targets under Fuzz/ (front matter reader, entry parser, Gherkin parser).
#
# SwiftPM cannot add -sanitize=fuzzer to one target, so the fuzzers are compiled with swiftc
# directly: the library layers the targets need once, with -sanitize=fuzzer,address, into
# .build/fuzz/lib, then each Fuzz/<target>/main.swift linked against it and the system libcmark and
# libyaml (their module maps come from Sources/CCmark and Sources/CYaml).
#
# Usage:
#   scripts/fuzz.sh build                       build every target into .build/fuzz/
#   scripts/fuzz.sh run [SECONDS] [TARGET...]   build, then run each target for SECONDS (default 600)
#   scripts/fuzz.sh smoke [SECONDS]             short run of each target (default 30); prints why and
#                                               exits 0 when the toolchain cannot build fuzzers
#
# The seed corpus is read in place from entries/ and the Gherkin conformance data
# ($KB_GHERKIN_CONFORMANCE, default ../shared/conformance/gherkin) and copied into a temporary corpus
# folder at run time; nothing is committed. Crashers are written to .build/fuzz/artifacts/<target>/.
# Figures of each run go to .build/fuzz/logs/<target>.log.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build/fuzz
all_targets=(FrontMatter EntryParser Gherkin)
mode=${1:-run}
shift || true
SWIFTC=${SWIFTC:-swiftc}
conformance=${KB_GHERKIN_CONFORMANCE:-$root/../shared/conformance/gherkin}
[[ -d $conformance ]] || conformance=/work/shared/conformance/gherkin

can_build() {
  command -v "$SWIFTC" >/dev/null 2>&1 || { echo "fuzz: skipped: $SWIFTC not found"; return 1; }
  [[ $(uname -s) == Linux ]] || { echo "fuzz: skipped: libFuzzer targets are built on Linux only"; return 1; }
  local probe
  probe=$(mktemp -d)
  printf '@_cdecl("LLVMFuzzerTestOneInput") public func f(_ d: UnsafePointer<UInt8>?, _ n: Int) -> CInt { 0 }\n' \
    > "$probe/main.swift"
  if ! "$SWIFTC" -sanitize=fuzzer,address -parse-as-library "$probe/main.swift" -o "$probe/probe" \
      >"$probe/log" 2>&1; then
    echo "fuzz: skipped: this toolchain cannot build libFuzzer targets (swiftc -sanitize=fuzzer failed):"
    sed 's/^/  /' "$probe/log" | head -5
    rm -rf "$probe"
    return 1
  fi
  rm -rf "$probe"
}

# The layers the targets need (KBCore, and KBScenarios for Gherkin) are compiled once each, in
# dependency order (with coverage instrumentation and AddressSanitizer, and -enable-testing so the
# targets can reach internal API through @testable import) into static archives; each target is
# its main.swift linked against them.
fuzz_layers=(KBCore KBScenarios)

build_library() {
  local layer archive newest sources below=""
  mkdir -p "$out/lib"
  for layer in "${fuzz_layers[@]}"; do
    archive=$out/lib/lib$layer.a
    newest=$(find "$root/Sources/$layer" -name '*.swift' -newer "$archive" 2>/dev/null | head -1 || true)
    # Up to date when no source is newer and the layer below was not rebuilt after it.
    if [[ -f $archive && -z $newest && ( -z $below || ! $below -nt $archive ) ]]; then below=$archive; continue; fi
    echo "fuzz: building $layer with -sanitize=fuzzer,address"
    mapfile -t sources < <(find "$root/Sources/$layer" -name '*.swift' | sort)
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -enable-testing \
      -module-name "$layer" -package-name troubleshootkb -emit-library -static -emit-module \
      -emit-module-path "$out/lib/$layer.swiftmodule" \
      -I "$out/lib" -I "$root/Sources/CCmark" -I "$root/Sources/CYaml" -module-cache-path "$out/module-cache" \
      "${sources[@]}" -o "$archive"
    below=$archive
  done
}

build_target() {
  local target=$1
  local binary=$out/$target
  local main=$root/Fuzz/$target/main.swift
  build_library
  if [[ -x $binary && $binary -nt $main && $binary -nt $out/lib/libKBCore.a && $binary -nt $out/lib/libKBScenarios.a ]]; then return 0; fi
  echo "fuzz: building $target"
  "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g \
    -I "$out/lib" -I "$root/Sources/CCmark" -I "$root/Sources/CYaml" -module-cache-path "$out/module-cache" \
    "$main" -L "$out/lib" -lKBScenarios -lKBCore -lcmark -lyaml -o "$binary"
}

seed_corpus() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  local n=0
  case $target in
    Gherkin)
      while IFS= read -r -d '' file; do cp "$file" "$dir/seed-$((n++)).feature"; done \
        < <(find "$root/entries" "$conformance" -name '*.feature' -print0 2>/dev/null)
      ;;
    *)
      while IFS= read -r -d '' file; do cp "$file" "$dir/seed-$((n++)).md"; done \
        < <(find "$root/entries" "$root/Tests/TroubleshootKBTests/Robustness/Corpus" -name '*.md' -print0 2>/dev/null)
      ;;
  esac
  echo "fuzz: $target: $n seed files"
}

run_target() {
  local target=$1 seconds=$2
  local corpus
  corpus=$(mktemp -d "${TMPDIR:-/tmp}/kb-fuzz-$target.XXXXXX")
  seed_corpus "$target" "$corpus"
  mkdir -p "$out/artifacts/$target" "$out/logs"
  local log=$out/logs/$target.log
  echo "fuzz: running $target for ${seconds}s (log: $log)"
  local status=0
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
    "$out/$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$out/artifacts/$target/" >"$log" 2>&1 || status=$?
  grep -E '^#[0-9]+.*(DONE|pulse)' "$log" | tail -1 || true
  grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' "$log" || true
  rm -rf "$corpus"
  if [[ $status -ne 0 ]]; then
    echo "fuzz: $target FAILED (exit $status); the crasher is in $out/artifacts/$target/:"
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -10
    return 1
  fi
}

case $mode in
  build)
    can_build || exit 1
    for target in "${all_targets[@]}"; do build_target "$target"; done
    ;;
  run|smoke)
    if [[ $mode == smoke ]]; then seconds=${1:-30}; else seconds=${1:-600}; fi
    shift || true
    targets=("$@")
    [[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
    if ! can_build; then [[ $mode == smoke ]] && exit 0; exit 1; fi
    failed=0
    for target in "${targets[@]}"; do build_target "$target"; done
    for target in "${targets[@]}"; do run_target "$target" "$seconds" || failed=1; done
    exit $failed
    ;;
  *)
    echo "usage: scripts/fuzz.sh build | run [SECONDS] [TARGET...] | smoke [SECONDS]" >&2
    exit 2
    ;;
esac
