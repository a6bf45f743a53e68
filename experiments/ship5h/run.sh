#!/usr/bin/env bash
# Slider 5x5 for an hour (issue 33's "long runs" lever, as experiments/
# shipc4h did for Connect Four): the shipped 5x5 player's configuration
# (experiments/ship5c) trained 60 minutes instead of 30, with Connect
# Four's hour-long schedule (the learning rate halved at steps 30k, 60k
# and 120k, where ship5c halved it at 4k and 8k) and a replay window of
# 300,000 positions (60,000). Exported with the shipped 5x5 default budget
# (51,200 simulations); then both critical sets of the 5x5 table at that
# budget and at 100 simulations, new and old, with nothing else running.
# Each step skips what a file already holds.
# Usage: bash experiments/ship5h/run.sh [OLD.player]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-ship5h ./cmd/sliderzero
sz=/tmp/sliderzero-ship5h
run=checkpoints/ship5h
new=checkpoints/ship5h.player
old=${1:-checkpoints/slider-5x5.player}
table=checkpoints/tables/slider-5x5.table
source "$here/../lib.sh"
[ -f "$table" ] || $sz solve --size 5 --out "$table"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 51200
step accuracy.txt $sz accuracy --table "$table" --parallel 2 --misses "$here/misses.tsv" \
  --player "player:$new;player:$old;player:$new,sims=100;player:$old,sims=100"
