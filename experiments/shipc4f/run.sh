#!/usr/bin/env bash
# Connect Four with the threat planes (features=1, experiments/strength2
# pair 36), trained for shipping (issue 33's Connect Four figures):
# experiments/shipc4's configuration with features=1, 30 minutes on both
# cores; exported with 1,600 simulations (the shipped budget); then both
# critical sets at 1,600 and 200 simulations, new and old, and the 80
# games against the budgeted perfect player from the empty board and the
# seven one-disc openings, with nothing else running.
# Each step skips what a file already holds.
# Usage: bash experiments/shipc4f/run.sh [OLD.player]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipc4f ./cmd/sliderzero
sz=/tmp/sliderzero-shipc4f
run=checkpoints/shipc4f
new=checkpoints/shipc4f.player
old=${1:-player/testdata/connect4-shipc4.player}
source "$here/../lib.sh"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 1600
step accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
  --player "player:$new;player:$old;player:$new,sims=200;player:$old,sims=200"
step perfect.txt $sz match --game connect4 --a "player:$new" --b solver:nodes=5000000 \
  --openings experiments/connect4/perfect-openings.txt --games 80 --parallel 2 --seed 1 --records "$here/perfect-match.jsonl"
python3 experiments/shipc4/perfect_tally.py "$here/perfect-match.jsonl"
