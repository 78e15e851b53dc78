#!/bin/bash
# Playouts a second of one search with 1, 2, 4 ... threads, and of as many
# one-thread searches at once (what the machine gives separate processes):
# the thread-scaling figures of docs/search.md.
#
#   tools/bench/thread_scaling.sh BIN_DIR [SECONDS] [ROUNDS] [THREADS...]
#   tools/bench/thread_scaling.sh build/bin 4 2 1 2 4 8 16
#
# Each search is the engine's genmove on the middle game that docs/search.md
# uses since its first two-thread figures, with --movetime SECONDS and a graph
# big enough that no search fills it. Prints one line per search.
set -eu
bin=$1
seconds=${2:-4}
rounds=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
threads=("$@")
[ $# -gt 0 ] || threads=(1 2)
[ -x "$bin/wallgo" ] || { echo "thread_scaling.sh: no $bin/wallgo" >&2; exit 1; }

# playouts THREADS HASH_MB: the playouts of one genmove (its stderr report).
playouts() {
  ( printf 'newgame\nplay red c3\nplay blue e3\nplay blue c5\nplay red e5\n'
    printf 'play red c3d3s\nplay blue e3e4e\ngenmove red\n'
    sleep "$(awk "BEGIN { print $seconds + 1.5 }")"; printf 'quit\n' ) |
    "$bin/wallgo" --movetime "$seconds" --hash "$2" --threads "$1" 2>&1 >/dev/null |
    sed -n 's/^genmove red: [^,]*, \([0-9]*\) visits.*/\1/p'
}

# per_second PLAYOUTS: playouts a second over the search's SECONDS.
per_second() { awk "BEGIN { printf \"%d\", $1 / $seconds }"; }

echo "cpu: $(nproc) logical cores, $(lscpu | sed -n 's/^Model name: *//p')"
for round in $(seq "$rounds"); do
  for t in "${threads[@]}"; do
    n=$(playouts "$t" $(( 1024 * t < 4096 ? 1024 * t : 4096 )))
    echo "round $round: one search, $t threads: $n playouts, $(per_second "$n")/s"
  done
  for t in "${threads[@]}"; do
    [ "$t" -gt 1 ] || continue
    dir=$(mktemp -d)
    for i in $(seq "$t"); do playouts 1 1024 >"$dir/$i" & done
    wait
    total=$(cat "$dir"/* | awk '{ s += $1 } END { print s }')
    rm -r "$dir"
    echo "round $round: $t one-thread searches at once: $total playouts, $(per_second "$total")/s"
  done
done
