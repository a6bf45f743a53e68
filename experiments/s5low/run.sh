#!/usr/bin/env bash
# Issue 64's lever that moved Connect Four (experiments/c4low), on Slider
# 5x5: the 5x5 network shipped until this run replaced it (experiments/
# ship5h's MLP 128x3, whose run ended at a learning rate of 0.00025;
# checkpoints/ship5h.player, which lib.sh takes from git history)
# trained 60 minutes more by self-play at 0.0001, everything else as
# ship5h. Exported at the shipped
# default budget (51,200 simulations), then both critical sets of the 5x5
# table at that budget and at 100 simulations, new and shipped, paired
# (misses.tsv). Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
sz=${SZ:-/tmp/sliderzero-s5low}
[ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
run=checkpoints/s5low
new=checkpoints/s5low.player
old=checkpoints/ship5h.player
table=checkpoints/tables/slider-5x5.table
source "$here/../lib.sh"
ship5h_player
[ -f "$table" ] || $sz solve --size 5 --out "$table"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 51200
step accuracy.txt $sz accuracy --table "$table" --parallel 2 --misses "$here/misses.tsv" \
  --player "player:$new;player:$old;player:$new,sims=100;player:$old,sims=100"
