#!/bin/bash
# Issue 42's many-core figures in one run sized for a lent machine (15
# minutes of device time a session, starting included): the speed test at
# 1, 2, 4 ... all cores, then Elo matches of N threads at T seconds a move
# against one thread at N x T, each with the cores split into groups of N
# (thread_match.sh) and stopped after MATCH_S seconds. Writes the raw outputs
# under OUT_DIR in the layout plot_threads.py reads (docs/runs/threads*).
#
#   tools/bench/device_threads.sh BIN_DIR OUT_DIR [SPEED_S] [MATCH_S] [SEED] [N:T ...]
#   tools/bench/device_threads.sh build-device/bin "$OUT/threads2" 2 100 60
#
# SPEED_S (default 2) is the speed test's --seconds, run for two rounds;
# MATCH_S (default 100) each match's limit; the matches (default 2:0.25 4:0.1
# 8:0.05) skip any N above the cores there are. When BIN_DIR/wallgo does not
# run there (a binary carried from another machine whose libraries differ),
# BIN_DIR's parent is built first, portably (-march=x86-64-v3).
set -eu
bin=$1
out=$2
speed_s=${3:-2}
match_s=${4:-100}
seed=${5:-60}
shift $(( $# < 5 ? $# : 5 ))
matches=("$@")
[ $# -gt 0 ] || matches=(2:0.25 4:0.1 8:0.05)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cores=$(nproc)

runs() { "$bin/wallgo" --version >/dev/null 2>&1 && [ -x "$bin/wallgo-referee" ]; }
if ! runs; then
  build=$(dirname "$bin")
  echo "device_threads: building $build" >&2
  cmake -S "$here/../.." -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DWALLGO_NATIVE=OFF -DCMAKE_CXX_FLAGS=-march=x86-64-v3 >/dev/null
  cmake --build "$build" --target wallgo wallgo-referee >/dev/null
fi

{
  date -u
  git -C "$here" rev-parse --short HEAD 2>/dev/null || echo "no git"
  echo "$cores cores"
  lscpu | grep -E 'Model name|Thread\(s\) per core|Core\(s\) per socket|L3 cache|NUMA node\(s\)' || true
} >"$out/machine.txt"

echo "-- speedtest $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo build)" \
  >"$out/speedtest.txt"
"$bin/wallgo" speedtest --threads "$cores" --seconds "$speed_s" --rounds 2 \
  | tee -a "$out/speedtest.txt"

for match in "${matches[@]}"; do
  n=${match%%:*}
  t=${match#*:}
  [ "$n" -le "$cores" ] || { echo "device_threads: skip $n threads ($cores cores)"; continue; }
  "$here/thread_match.sh" "$bin" "$n" "$t" 400 "$match_s" "$seed" "$out/match-$n" \
    | tee "$out/match-$n.txt"
done
date -u >>"$out/machine.txt"
