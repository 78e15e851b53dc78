#!/bin/sh
# The wasm engine against the native one on this machine, one thread, in
# the same run (docs/web.md): perft leaves a second and search visits a
# second, then the download sizes gzipped.
#   tools/web/measure.sh NATIVE_WALLGO SITE
set -eu
native=$1
site=$2
export NODE_PATH=/usr/share/nodejs
# perft 4 from the start three times, then a 5-second search at the start
# and after two moves; the times are the engine's own (stderr events) and
# the wall clock's.
script='perft 4
perft 4
perft 4
set_option movetime 5
genmove red
newgame
play red d4
genmove blue
quit'
measure() {
  name=$1
  shift
  start=$(date +%s.%N)
  printf '%s\n' "$script" | head -3 | "$@" --threads 1 >/dev/null 2>&1
  perft_s=$(echo "$(date +%s.%N) - $start" | bc)
  printf '%s\n' "$script" | "$@" --threads 1 2>&1 >/dev/null |
    grep -E '^genmove' | sed "s/^/$name: /"
  echo "$name: 3 x perft 4 (10,727,640 leaves) in ${perft_s} s (start-up included)"
}
measure native "$native"
measure wasm node "$site/engine/wallgo-node.js"
gz() { gzip -9c "$1" | wc -c; }
echo "gzipped: wasm $(gz "$site/engine/wallgo-web.wasm") B," \
  "js $(( $(gz "$site/engine/wallgo-web.js") + $(gz "$site/engine/wallgo-web.worker.js") + $(gz "$site/engine/wallgo-worker.js") + $(gz "$site/engine/wallgo.mjs") )) B"
