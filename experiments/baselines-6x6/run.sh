#!/usr/bin/env bash
# Round robin of the baseline players on Slider 6x6 (open board, H first):
# 100 games per pair, colours alternating. Writes results.txt beside this
# script. Run from anywhere: bash experiments/baselines-6x6/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-baselines ./cmd/sliderzero
players=(random greedy mcts:sims=1000 alphabeta:depth=4 alphabeta)
out="$here/results.txt"
: > "$out"
for ((i = 0; i < ${#players[@]}; i++)); do
  for ((j = i + 1; j < ${#players[@]}; j++)); do
    /tmp/sliderzero-baselines match --a "${players[j]}" --b "${players[i]}" \
      --games 100 --size 6 --seed 1 2>/dev/null | tee -a "$out"
    echo | tee -a "$out"
  done
done
