#!/usr/bin/env bash
# The figures of docs/cluster.md, on a private single-node Slurm
# (tools/cluster/local-slurm), as root:
#   1. overhead: games a second of a 4-task array against one
#      --concurrency 2 run of the same games;
#   2. the live SPRT on a lopsided pair (level 10 against level 1): games
#      played before it stops, against the fixed-length match's;
#   3. SIGTERM to exit for each program, at 20 random moments each;
#   4. games and queries lost or duplicated over 20 random requeues each.
#
#   tools/cluster/measure.sh [BUILD/bin] [OUT] [SECTIONS]
#     (default build/bin, a temp folder, 1234: which of the figures to make)
#
# Everything runs under nice; the figures depend on the host's load.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(readlink -f "${1:-$root/build/bin}")
out=${2:-$(mktemp -d /tmp/wallgo-measure-XXXXXX)}
sections=${3:-1234}
want() { [[ "$sections" == *"$1"* ]]; }
mkdir -p "$out"
out=$(readlink -f "$out")
chmod 755 "$out"
cluster="$root/tools/cluster/wallgo-cluster"
export WALLGO_BIN=$bin WALLGO_POLL=1

cleanup() { "$root/tools/cluster/local-slurm" stop "$out/slurm" || true; }
trap cleanup EXIT
# The node offers 4 CPUs on the 2-core machine, so that the 4 tasks of an
# array run at once, as on a cluster with a free slot for each.
"$root/tools/cluster/local-slurm" start "$out/slurm" 4 >/dev/null
export SLURM_CONF=$out/slurm/slurm.conf

now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }
engine() { echo "name=$1:$bin/wallgo --hash 16 $2"; }

placements=(c3 e3 c5 e5)  # free in the start position
echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); results in $out"

# --- 1. overhead --------------------------------------------------------------
if want 1; then
# The same 200 games: one referee with --concurrency 2 (A) and 4 (C), and a
# 4-task array of 1 CPU each (B), submitted, followed and merged; in the
# order A B C B A, as the host's load drifts.
games=200
pair=(-e "$(engine a '--visits 1500')" -e "$(engine b '--visits 500')" --games $games --movetime 30)
one_run() {
  rm -f "$out/one.jsonl"
  local t
  t=$(now)
  nice "$bin/wallgo-referee" "${pair[@]}" --concurrency "$1" --records "$out/one.jsonl" -q >/dev/null
  elapsed "$t"
}
array_run() {
  rm -rf "$out/array"
  local t
  t=$(now)
  nice "$cluster" match --dir "$out/array" --tasks 4 --poll 1 -- "${pair[@]}" >"$out/array.txt"
  elapsed "$t"
}
a1=$(one_run 2)
b1=$(array_run)
c1=$(one_run 4)
b2=$(array_run)
a2=$(one_run 2)
rate() { echo "scale=2; $games / $1" | bc; }
echo "1. overhead, $games games (s, games/s): one run --concurrency 2: $a1 ($(rate "$a1")), $a2 ($(rate "$a2"));" \
  "4-task array, submit to merged report: $b1 ($(rate "$b1")), $b2 ($(rate "$b2"));" \
  "one run --concurrency 4: $c1 ($(rate "$c1")); array/--concurrency 2 games/s ratio" \
  "$(echo "scale=3; ($a1 + $a2) / ($b1 + $b2)" | bc)"
fi


# --- 2. live SPRT on the lopsided pair ---------------------------------------
if want 2; then
lopsided=(-e "$(engine strong '--level 10 --visits 3000')" -e "$(engine weak '--level 1')" --movetime 30)
t=$(now)
nice "$cluster" match --dir "$out/sprt" --tasks 4 --sprt 0,50,0.05,0.05 --poll 1 -- \
  "${lopsided[@]}" --games 400 >"$out/sprt.txt"
sprt_time=$(elapsed "$t")
t=$(now)
nice "$cluster" match --dir "$out/fixed" --tasks 4 --poll 1 -- "${lopsided[@]}" --games 400 >"$out/fixed.txt"
fixed_time=$(elapsed "$t")
echo "2. live SPRT (0,50,0.05,0.05), level 10 (3000 visits) against level 1, 4 tasks:" \
  "stopped after $(wc -l <"$out/sprt/match.jsonl") games in $sprt_time s;" \
  "the fixed-length match: $(wc -l <"$out/fixed/match.jsonl") games in $fixed_time s"
fi


# --- 3. SIGTERM to exit, 20 random moments per program ------------------------
if want 3; then
for i in $(seq 0 199); do
  n=$((1 + i % 4))
  moves=$(printf '"%s",' "${placements[@]:0:n}")
  echo "{\"id\":\"q$i\",\"moves\":[${moves%,}],\"maxVisits\":4000,\"analyzeTurns\":[0,$n]}"
done >"$out/queries.jsonl"
nice "$bin/wallgo-referee" -e "$(engine a '--visits 50')" -e "$(engine b '--level 2')" \
  --games 20 --records "$out/games.jsonl" -q >/dev/null

# Runs "$@" (a function that execs a program writing into $out/term), sends
# SIGTERM at a random moment in 0.2..3 s, prints the seconds from the signal
# to the exit and the status.
term_once() {
  rm -rf "$out/term" && mkdir -p "$out/term"
  "$@" >/dev/null 2>&1 &
  local pid=$! wait_s t status=0
  wait_s=$(echo "scale=2; 0.2 + $RANDOM % 280 / 100" | bc)
  sleep "$wait_s"
  t=$(now)
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || status=$?
  echo "$(elapsed "$t") $status"
}

run_match() {
  exec nice "$bin/wallgo-referee" -e "$(engine a '--visits 3000')" -e "$(engine b '--visits 1000')" \
    --games 400 --concurrency 2 --records "$out/term/r.jsonl" -q
}
run_annotate() {
  exec nice "$bin/wallgo-referee" annotate "$out/games.jsonl" --engine "$bin/wallgo --hash 16" \
    --visits 2000 --output "$out/term/a.jsonl" -q
}
run_analysis() {
  exec nice "$bin/wallgo" --hash 16 analysis --analysis-threads 2 --queries "$out/queries.jsonl" \
    --answers "$out/term/answers.jsonl"
}
run_generate() {
  exec nice "$bin/wallgo-net" generate --out "$out/term/d.wgd" --games 2000 --visits 300 --jobs 2 --quiet
}
for name in match annotate analysis generate; do
  : >"$out/term-$name.txt"
  for _ in $(seq 20); do term_once "run_$name" >>"$out/term-$name.txt"; done
  sort -n "$out/term-$name.txt" | awk -v name="$name" '
    {t[NR] = $1; s[$2]++}
    END {printf "3. SIGTERM to exit, %s: 20 moments, median %.3f s, max %.3f s; statuses:", name, t[int((NR + 1) / 2)], t[NR];
         for (k in s) printf " %s x%d", k, s[k]; print ""}'
done
fi


# --- 4. random requeues: nothing lost or done twice ---------------------------
if want 4; then
# Requeues a random running task of the folder's job every 0.5..2.5 s, 20
# times, lifting the start delay each time (once the task's last run is
# gone: starting it while its old step still ends makes Slurm fail it).
requeue_randomly() {
  local d=$1 job done_n=0 task
  job=$(cat "$d/job")
  while [ "$done_n" -lt 20 ]; do
    sleep "$(echo "scale=2; 0.5 + $RANDOM % 200 / 100" | bc)"
    task=$(squeue -h -j "$job" -t RUNNING -o %K | shuf -n 1)
    [ -n "$task" ] || {
      [ -n "$(squeue -h -j "$job")" ] || break
      continue
    }
    scontrol requeue "${job}_$task" 2>/dev/null || continue
    done_n=$((done_n + 1))
    for _ in $(seq 40); do
      [ "$(squeue -h -j "${job}_$task" -o %T)" = PENDING ] && break
      sleep 0.05
    done
    "$root/tools/cluster/local-slurm" lift "$out/slurm" "${job}_$task" 2>/dev/null || true
  done
  echo "$done_n"
}

nice "$cluster" match --dir "$out/requeue-match" --tasks 4 --no-follow -- \
  -e "$(engine a '--visits 3000')" -e "$(engine b '--visits 1000')" --games 160 --movetime 30 >/dev/null
n_match=$(requeue_randomly "$out/requeue-match")
nice "$cluster" follow "$out/requeue-match" >/dev/null
match_check=$(cat "$out"/requeue-match/shard-*.jsonl | /usr/bin/python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["game"] for l in sys.stdin)
print(f"{len(set(range(1, 161)) - set(c))} lost, {sum(v - 1 for v in c.values())} duplicated of 160 games")')

# Twice the queries at three times the visits: 20 requeues take a minute.
for i in $(seq 0 399); do
  n=$((1 + i % 4))
  moves=$(printf '"%s",' "${placements[@]:0:n}")
  echo "{\"id\":\"r$i\",\"moves\":[${moves%,}],\"maxVisits\":12000,\"analyzeTurns\":[0,$n]}"
done >"$out/queries-requeue.jsonl"
nice "$cluster" analysis --dir "$out/requeue-analysis" --tasks 4 --queries "$out/queries-requeue.jsonl" \
  --no-follow -- --hash 16 >/dev/null
n_analysis=$(requeue_randomly "$out/requeue-analysis")
analysis_status=0
nice "$cluster" follow "$out/requeue-analysis" >"$out/requeue-analysis.txt" 2>&1 || analysis_status=$?
analysis_check=$(cat "$out"/requeue-analysis/shard-*.jsonl | /usr/bin/python3 -c '
import collections, json, sys
c = collections.Counter((a["id"], a["turnNumber"]) for a in map(json.loads, sys.stdin))
print(f"{800 - len(c)} lost, {sum(v - 1 for v in c.values())} duplicated of 800 answers")')
echo "4. requeues: match $n_match requeues: $match_check;" \
  "analysis $n_analysis requeues: $analysis_check (merge status $analysis_status)"
fi
