#!/bin/bash
# The threads' many-core figures (docs/search.md#a-many-core-run) in one run
# of about six minutes on a 16-core machine with the defaults: the speed
# test at 1, 2, 4 ... all cores, then Elo matches of N threads at T seconds a
# move against one thread at N x T, each with the cores split into groups of
# N (thread_match.sh) and stopped after MATCH_S seconds. Writes the raw
# outputs to OUT_DIR in the layout plot_threads.py reads (docs/runs/threads*):
# machine.txt, speedtest.txt, match-N.txt for each N and the games' records
# in one archive, records.tar.gz: a handful of files, easy to copy off.
#
#   tools/bench/device_threads.sh BIN_DIR OUT_DIR [SPEED_S] [MATCH_S] [SEED] [N:T ...]
#   tools/bench/device_threads.sh build-device/portable/bin runs/threads2 2 100 60
#
# SPEED_S (default 2) is the speed test's --seconds, run for two rounds;
# MATCH_S (default 100) each match's limit; the matches (default 2:0.25 4:0.1
# 8:0.05) skip any N above the cores there are. BIN_DIR holds wallgo and
# wallgo-referee; for another machine, the ones portable_bin.sh makes.
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

if ! { "$bin/wallgo" --version >/dev/null && [ -x "$bin/wallgo-referee" ]; }; then
  echo "device_threads: $bin/wallgo does not run here (tools/bench/portable_bin.sh)" >&2
  exit 1
fi
# The commit the programs were built from: portable_bin.sh notes it, since a
# copy of the programs on another machine may come without git.
build=$(cat "$bin/../commit" 2>/dev/null || git -C "$here" rev-parse --short HEAD 2>/dev/null ||
  echo unknown)
records=$(mktemp -d)

{
  date -u
  echo "build $build"
  echo "$cores cores"
  lscpu | grep -E 'Model name|Thread\(s\) per core|Core\(s\) per socket|L3 cache|NUMA node\(s\)' || true
} >"$out/machine.txt"

echo "-- speedtest $build" >"$out/speedtest.txt"
"$bin/wallgo" speedtest --threads "$cores" --seconds "$speed_s" --rounds 2 \
  | tee -a "$out/speedtest.txt"

for match in "${matches[@]}"; do
  n=${match%%:*}
  t=${match#*:}
  [ "$n" -le "$cores" ] || { echo "device_threads: skip $n threads ($cores cores)"; continue; }
  "$here/thread_match.sh" "$bin" "$n" "$t" 400 "$match_s" "$seed" "$records/match-$n" \
    | tee "$out/match-$n.txt"
done
tar czf "$out/records.tar.gz" -C "$records" .
rm -rf "$records"
date -u >>"$out/machine.txt"
