#!/usr/bin/env bash
# Runs libFuzzer targets (tests/fuzz, docs/fuzzing.md) on their corpus with
# their dictionary:
#   tools/fuzz/run.sh TARGET[,TARGET...]|all SECONDS
# Builds them first (clang, -DWALLGO_FUZZ=ON) in $WALLGO_FUZZ_BUILD (default
# build-fuzz). New inputs go to $WALLGO_FUZZ_OUT/corpus/TARGET (default
# fuzz-out, not the repository's corpus; copy an input there by hand to keep
# it), crashes, hangs and leaks to $WALLGO_FUZZ_OUT/artifacts/TARGET-*. One
# line per target: executions, executions a second, edges (libFuzzer's cov)
# and features at the end, and whether it found anything; also written to
# $WALLGO_FUZZ_OUT/summary.tsv. The exit status is 1 if any target found
# something. An input that runs longer than $WALLGO_FUZZ_TIMEOUT seconds
# (default 20; inputs take milliseconds) is reported as a hang.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -ne 2 ]; then
  echo "usage: tools/fuzz/run.sh TARGET[,TARGET...]|all SECONDS" >&2
  exit 2
fi
which_target=$1
seconds=$2
build=${WALLGO_FUZZ_BUILD:-build-fuzz}
out=${WALLGO_FUZZ_OUT:-fuzz-out}
all_targets=$(sed -n 's/^add_fuzz_target(\([a-z_]*\).*/\1/p' tests/fuzz/CMakeLists.txt)
if [ "$which_target" = all ]; then
  targets=$all_targets
else
  targets=${which_target//,/ }
  for t in $targets; do
    if ! grep -qx "$t" <<<"$all_targets"; then
      echo "unknown target '$t'; targets: all" $all_targets >&2
      exit 2
    fi
  done
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # -O1 -g1 by default, as the sanitizer builds of .ci/run: a quicker build
  # than -O2, and line numbers in the reports. CI builds at -O0
  # (WALLGO_FUZZ_FLAGS), which halves the build for its 5-second runs.
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DWALLGO_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=${WALLGO_FUZZ_FLAGS:--O1 -g1} -DNDEBUG" \
    "${launcher[@]}" >/dev/null
fi
build_targets=()
for t in $targets; do build_targets+=("fuzz_$t"); done
cmake --build "$build" --target "${build_targets[@]}"

mkdir -p "$out/artifacts"
summary=$out/summary.tsv
[ -f "$summary" ] || printf 'target\tseconds\texecs\texecs_per_s\tedges\tfeatures\tcorpus\tfound\n' >"$summary"
failed=0
for t in $targets; do
  mkdir -p "$out/corpus/$t"
  log=$out/$t.log
  max_len=()
  case $t in
    selfplay_data|weights) max_len=(-max_len=8192) ;;
    records|gui_message) max_len=(-max_len=16384) ;;
  esac
  status=0
  "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout="${WALLGO_FUZZ_TIMEOUT:-20}" -rss_limit_mb=2560 \
    -print_final_stats=1 -dict="tests/fuzz/dict/$t.dict" "${max_len[@]}" \
    -artifact_prefix="$out/artifacts/$t-" \
    "$out/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  edges=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  features=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corpus=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  found=none
  if [ $status -ne 0 ]; then
    found=$(ls -t "$out/artifacts/$t-"* 2>/dev/null | head -1 || true)
    found=${found:-"exit $status, see $log"}
    failed=1
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$seconds" "${execs:-?}" "${rate:-?}" \
    "${edges:-?}" "${features:-?}" "${corpus:-?}" "$found" | tee -a "$summary"
  if [ $status -ne 0 ]; then
    grep -E 'ERROR|check failed|SUMMARY' "$log" | head -5 >&2 || true
  fi
done
exit $failed
