#!/bin/bash
# The many-core recipe of docs/search.md end to end, on this machine:
# tools/bench/portable_bin.sh's bundle runs from wherever it is copied to on
# its own libraries alone, and device_threads.sh, run from it, writes the
# files plot_threads.py reads. Exits 77 (skipped) on a single core, where no
# two-thread match can be split off.
#
#   device_scripts_test.sh BIN_DIR
set -euo pipefail
bin=$1
src=$(cd "$(dirname "$0")/../../.." && pwd)
[ "$(nproc)" -ge 2 ] || { echo "one core: no two-thread match"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A folder that is not a bundle is never replaced; a bundle is.
mkdir "$work/made" && touch "$work/made/keep"
if "$src/tools/bench/portable_bin.sh" "$bin" "$work/made" wallgo 2>/dev/null ||
  [ ! -f "$work/made/keep" ]; then
  fail "a folder that is not a bundle was replaced"
fi
rm -r "$work/made"
# Programs copied out of their build (no CMake cache, no git) still bundle.
mkdir "$work/plain" && cp "$bin/wallgo" "$work/plain/"
"$src/tools/bench/portable_bin.sh" "$work/plain" "$work/made" wallgo
[ "$(cat "$work/made/commit")" = unknown ] || fail "commit of a copy: $(cat "$work/made/commit")"
"$src/tools/bench/portable_bin.sh" "$bin" "$work/made" wallgo wallgo-referee  # replaces it
mv "$work/made" "$work/bundle"  # a copy on another machine lies elsewhere
bundle=$work/bundle

# Every library the bundle's loader resolves for the engine is the bundle's.
loader=("$bundle"/lib/ld-linux-*)
resolved=$("${loader[0]}" --library-path "$bundle/lib" --list "$bundle/libexec/wallgo" |
  awk '$2 == "=>" { print $3 }')
[ "$(wc -l <<<"$resolved")" -ge 5 ] || fail "too few libraries resolved: $resolved"
while read -r path; do
  case $path in "$bundle/lib/"*) ;; *) fail "$path is not the bundle's" ;; esac
done <<<"$resolved"

# The wrapper runs with no environment, and through a link to it.
version=$(env -i PATH=/usr/bin:/bin "$bundle/bin/wallgo" --version)
[ "$version" = "$("$bin/wallgo" --version)" ] || fail "version: $version"
ln -s "$bundle/bin/wallgo" "$work/linked"
[ "$("$work/linked" --version)" = "$version" ] || fail "through a link"
grep -qx '[0-9a-f]\+\(-dirty\)\?' "$bundle/commit" || fail "commit: $(cat "$bundle/commit")"

# The device run, in miniature: speed test and one two-thread match.
"$src/tools/bench/device_threads.sh" "$bundle/bin" "$work/out" 0.2 15 64 2:0.05
[ "$(cd "$work/out" && echo *)" = "machine.txt match-2.txt records.tar.gz speedtest.txt" ] ||
  fail "files: $(ls "$work/out")"
[ "$(head -1 "$work/out/speedtest.txt")" = "-- speedtest $(cat "$bundle/commit")" ] ||
  fail "speed table's title: $(head -1 "$work/out/speedtest.txt")"
grep -q '^speedtest: 2 threads .* efficiency [0-9]*%$' "$work/out/speedtest.txt" ||
  fail "no speed test summary"
score=$(sed -n 's/^Score of t2 vs t1: \([0-9]*\) - \([0-9]*\) - \([0-9]*\) .*/\1 \2 \3/p' \
  "$work/out/match-2.txt")
read -r wins losses draws <<<"$score"
[ $(( wins + losses + draws )) -ge 1 ] || fail "no game in the match: $(cat "$work/out/match-2.txt")"
tar xzf "$work/out/records.tar.gz" -C "$work"
[ "$(cat "$work"/match-2/shard-*.jsonl | wc -l)" = $(( wins + losses + draws )) ] ||
  fail "records and score disagree"

# The plot reads the run.
/usr/bin/python3 "$src/tools/bench/plot_threads.py" "$work/out" "$work/plot.png" \
  --machine test | grep -qx "2 threads: $wins-$losses-$draws, .*" || fail "plot's summary"
[ -s "$work/plot.png" ] || fail "no plot"
echo "device scripts: bundle of $(wc -l <<<"$resolved") libraries, match $wins-$losses-$draws"
