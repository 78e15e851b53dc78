#!/bin/bash
# Reproduces the network's weights from nothing:
#   self-play data (wallgo-net generate) -> training examples (features)
#   -> training (train.py; every batch seen through a random board symmetry)
#   -> export -> engine == trainer (verify)
#   -> offline measures on held-out games (evaluate).
#
#   tools/train/make_weights.sh --out DIR            # the shipped network
#   tools/train/make_weights.sh --tiny --out DIR     # seconds: the test's run
#   tools/train/make_weights.sh --out DIR2 --seed 2 --games 6000 --eval hybrid \
#       --weights DIR/net.wgn --also DIR/train.wgd  # the next generation
#
# Options: --bin DIR (wallgo-net's folder, default build/bin), --seed N,
# --games N, --heldout N, --visits N, --jobs N, --epochs X, --threads N;
# --eval classic|net|hybrid and --weights FILE: the self-play search's
# evaluation (default: wallgo-net generate's, its self-play profile;
# weights default to the built-in network);
# --also FILE: an earlier generation's data file to train on as well
# (repeatable).
# Writes DIR/net.wgn, DIR/net.fixture.json, DIR/summary.json,
# DIR/evaluate.txt and DIR/net.provenance.txt. Data generation resumes
# where a killed run stopped (same options).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=build/bin out= seed=1 games=3000 heldout=300 visits=400 jobs=4
epochs=6 threads=2 batch=512 policy_every=4 tiny=0 eval= weights=
also=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tiny) tiny=1; games=8; heldout=2; visits=24; jobs=2; epochs=6; batch=64
            threads=1; policy_every=1; shift ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --heldout) heldout=$2; shift 2 ;;
    --visits) visits=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --eval) eval=$2; shift 2 ;;
    --weights) weights=$2; shift 2 ;;
    --also) also+=("$2"); shift 2 ;;
    *) echo "make_weights.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$out" ]; then echo "make_weights.sh: --out DIR is required" >&2; exit 2; fi
if [ ! -x "$bin/wallgo-net" ]; then
  echo "make_weights.sh: no $bin/wallgo-net (build it: cmake --build build --target wallgo-net)" >&2
  exit 2
fi
mkdir -p "$out"
net="$bin/wallgo-net"
start=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - start )) s)" >&2; }

# Unless --eval names one, the evaluation of wallgo-net's self-play profile.
if [ -z "$eval" ]; then
  eval=$("$net" generate --help | sed -n 's/.*--eval arg (=\([a-z]*\)).*/\1/p')
fi
search=(--eval "$eval")
if [ -n "$weights" ]; then search+=(--weights "$weights"); fi
step "self-play: $games games for training, $heldout held out, $visits visits a move, eval $eval"
"$net" generate --out "$out/train.wgd" --games "$games" --visits "$visits" \
  --seed "$seed" --jobs "$jobs" "${search[@]}" --quiet
"$net" generate --out "$out/heldout.wgd" --games "$heldout" --visits "$visits" \
  --seed $((seed + 1000)) --jobs "$jobs" "${search[@]}" --quiet
step "training examples"
"$net" features --data "$out/train.wgd" "${also[@]}"
step "training"
/usr/bin/python3 "$here/train.py" --data "$out/train.wgd" "${also[@]}" --out "$out/net.wgn" \
  --fixture "$out/net.fixture.json" --summary "$out/summary.json" \
  --seed "$seed" --epochs "$epochs" --batch "$batch" --threads "$threads" \
  --symmetries \
  $([ $tiny = 1 ] && echo --holdout-every 4)
step "engine == trainer"
"$net" verify --weights "$out/net.wgn" --fixture "$out/net.fixture.json"
step "held-out measures"
"$net" evaluate --data "$out/heldout.wgd" --weights "$out/net.wgn" \
  --policy-every "$policy_every" --speed $([ $tiny = 1 ] && echo false || echo true) \
  | tee "$out/evaluate.txt"
records() { echo $(( ($(stat -c %s "$1") - 256) / 1216 )); }
positions=$(records "$out/train.wgd")
also_text=
for f in "${also[@]}"; do also_text+=" + $f ($(records "$f") positions)"; done
weights_text=${weights:-the built-in network}
[ "$eval" = classic ] && weights_text=none
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
cat > "$out/net.provenance.txt" <<EOF
command: tools/train/make_weights.sh --seed $seed --games $games --heldout $heldout --visits $visits --jobs $jobs --epochs $epochs --threads $threads --eval $eval${weights:+ --weights $weights}$(for f in "${also[@]}"; do printf ' --also %s' "$f"; done)$([ $tiny = 1 ] && echo " --tiny")
seed: $seed
data: $games self-play games, $positions positions, $visits visits a move (level 10 search, eval $eval, weights $weights_text), held out: $heldout games (seed $((seed + 1000)))$also_text
commit: $commit
made: $(date -u +%Y-%m-%dT%H:%MZ) in $(( $(date +%s) - start )) s
sha256: $(sha256sum "$out/net.wgn" | cut -d' ' -f1)
EOF
step "done: $out/net.wgn"
