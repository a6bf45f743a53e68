#!/usr/bin/env bash
# Connect Four for an hour (issue 33's "long runs" lever, and its one
# Connect Four figure not reached: a loss to the perfect player from a
# drawn start): experiments/shipc4f's configuration (the shipped player's)
# trained 60 minutes instead of 30, with its learning-rate steps twice as
# far apart and one more halving, and a replay window of 300,000 positions
# (200,000). Exported with the shipped default budget (12,800
# simulations); then both critical sets at 12,800 and 200 simulations, new
# and old, and the 80 games against the budgeted perfect player from the
# empty board and the seven one-disc openings, with nothing else running.
# Each step skips what a file already holds.
# Usage: bash experiments/shipc4h/run.sh [OLD.player]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipc4h ./cmd/sliderzero
sz=/tmp/sliderzero-shipc4h
run=checkpoints/shipc4h
new=checkpoints/shipc4h.player
old=${1:-checkpoints/connect4.player}
source "$here/../lib.sh"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 12800
step accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
  --player "player:$new;player:$old;player:$new,sims=200;player:$old,sims=200"
step perfect.txt $sz match --game connect4 --a "player:$new" --b solver:nodes=5000000 \
  --openings experiments/connect4/perfect-openings.txt --games 80 --parallel 2 --seed 1 --records "$here/perfect-match.jsonl"
python3 experiments/shipc4/perfect_tally.py "$here/perfect-match.jsonl"
