#!/bin/bash
# Elo of one search on N threads at T seconds a move against one thread at
# N x T (Stockfish's way of measuring threads: what a second core is worth
# against a doubling of time), with the machine's cores split into groups of
# N: each group plays its own shard of the match, pinned there with taskset,
# so that a group's engines never share a core with another group's.
#
#   tools/bench/thread_match.sh BIN_DIR N T GAMES [LIMIT_S] [SEED] [OUT_DIR]
#   tools/bench/thread_match.sh build/bin 2 0.25 400          # on 2 cores
#   tools/bench/thread_match.sh build/bin 16 0.1 40 600 7     # on 16 cores
#
# LIMIT_S (default: none) stops the shards after that many seconds (the
# referee keeps every finished game). Prints the merged result; the shards'
# records are in OUT_DIR (default: a new temporary folder).
set -eu
bin=$1
threads=$2
movetime=$3
games=$4
limit=${5:-0}
seed=${6:-1}
out=${7:-$(mktemp -d)}
[ -x "$bin/wallgo" ] && [ -x "$bin/wallgo-referee" ] ||
  { echo "thread_match.sh: no $bin/wallgo or $bin/wallgo-referee" >&2; exit 1; }
mkdir -p "$out"
cores=$(nproc)
[ "$threads" -le "$cores" ] || { echo "thread_match.sh: $threads threads, $cores cores" >&2; exit 1; }
groups=$(( cores / threads ))
long=$(awk "BEGIN { print $threads * $movetime }")
echo "thread_match: $threads threads at $movetime s against 1 thread at $long s," \
  "$games games in $groups groups of $threads cores ($cores here)"
stop=()
[ "$limit" = 0 ] || stop=(timeout -s TERM "$limit")
for g in $(seq 0 $(( groups - 1 ))); do
  first=$(( g * threads ))
  "${stop[@]}" taskset -c "$first-$(( first + threads - 1 ))" \
    "$bin/wallgo-referee" \
    -e "name=t$threads:$bin/wallgo --threads $threads --movetime $movetime" \
    -e "name=t1:$bin/wallgo --threads 1" --movetime "$long" \
    --games "$games" --shard "$(( g + 1 ))/$groups" --seed "$seed" \
    --records "$out/shard-$g.jsonl" --quiet >"$out/shard-$g.log" 2>&1 &
done
wait || true
"$bin/wallgo-referee" merge "$out"/shard-*.jsonl
