#!/usr/bin/env bash
# Slider NxN from scratch on this machine: train with experiments/sliderN/
# config.json, write the run's report and copy it there, play the trained
# agent against alphabeta at an equal time per move, and export the player.
# Run from anywhere: bash experiments/slider.sh 5   (or 6)
set -euo pipefail
n=${1:?board size: 5 or 6}
here="$(cd "$(dirname "$0")" && pwd)/slider$n"
cd "$here/../.."
go build -o /tmp/sliderzero-exp ./cmd/sliderzero
sz=/tmp/sliderzero-exp
run=checkpoints/slider$n
rm -rf "$run"
$sz train --config "$here/config.json" --run "$run" --quiet
$sz report --run "$run"
cp "$run"/report.md "$run"/*.png "$here/"
$sz match --a "net:checkpoint=$run/checkpoint.msgpack" --b alphabeta --movetime 0.1 --games 100 \
  --size "$n" --blocked random --first random --records "$here/final.jsonl" 2>/dev/null | tee "$here/final.txt"
$sz export --checkpoint "$run/checkpoint.msgpack" --out "checkpoints/slider-${n}x${n}.player"
