#!/usr/bin/env bash
# experiments/shipc4h's hour-long Connect Four run trained 30 minutes more
# (90 in all) by resuming a copy of its folder, then measured as shipc4h
# was: both critical sets at the shipped default (12,800 simulations) and
# at 200, and the 80 games against the budgeted perfect player from the
# empty board and the seven one-disc openings, with nothing else running.
# Needs checkpoints/shipc4h (bash experiments/shipc4h/run.sh).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipc4h90 ./cmd/sliderzero
sz=/tmp/sliderzero-shipc4h90
run=checkpoints/shipc4h90
new=checkpoints/shipc4h90.player
source "$here/../lib.sh"
extend_and_report shipc4h 30
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 12800
step accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
  --player "player:$new;player:$new,sims=200"
step perfect.txt $sz match --game connect4 --a "player:$new" --b solver:nodes=5000000 \
  --openings experiments/connect4/perfect-openings.txt --games 80 --parallel 2 --seed 1 --records "$here/perfect-match.jsonl"
python3 experiments/shipc4/perfect_tally.py "$here/perfect-match.jsonl"
