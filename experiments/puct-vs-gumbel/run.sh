#!/usr/bin/env bash
# PUCT against Gumbel search in self-play: which learns faster per minute of
# this machine? Trains one run per configuration here (8 minutes each, one
# after the other, both cores), then plays every per-minute snapshot of each
# run against fixed baselines and writes results.csv beside this script.
# Run from the repository root: bash experiments/puct-vs-gumbel/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-exp ./cmd/sliderzero
sz=/tmp/sliderzero-exp
out="$here/results.csv"
echo "config,snapshot_step,minutes,baseline,score" > "$out"
for cfg in puct64 gumbel16 gumbel64; do
  run="checkpoints/exp-$cfg"
  rm -rf "$run"
  $sz train --config "$here/$cfg.json" --run "$run" --quiet
  for snap in "$run"/snapshots/weights-*.msgpack "$run/checkpoint.msgpack"; do
    step=$(basename "$snap" .msgpack | sed 's/weights-0*//; s/checkpoint/final/')
    # Training minutes at this snapshot, from the metrics log.
    if [ "$step" = final ]; then
      minutes=$(tail -1 "$run/metrics.jsonl" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["elapsed_seconds"]/60, 2))')
    else
      minutes=$(python3 -c "
import json,sys
best=0
for l in open('$run/metrics.jsonl'):
    m=json.loads(l)
    if m['steps']<=int('${step:-0}'): best=m['elapsed_seconds']
print(round(best/60,2))")
    fi
    for base in alphabeta:depth=4 mcts:sims=1000; do
      score=$($sz match --a "net:checkpoint=$snap,sims=100" --b "$base" --games 40 --size 5 --blocked random --seed 7 2>/dev/null \
        | sed -n 's/^score of A: \([0-9.]*\)%.*/\1/p')
      echo "$cfg,$step,$minutes,$base,$score" | tee -a "$out"
    done
  done
done
