#!/usr/bin/env bash
# One experiment from scratch on this machine: train with
# experiments/NAME/config.json, write the run's report and copy it into
# experiments/NAME/, play the trained agent against a classical opponent,
# and (for Slider) export the player to checkpoints/.
# Run from anywhere: bash experiments/run.sh slider5   (slider6, rlgame, catsdogs)
set -euo pipefail
name=${1:?experiment: slider5, slider6, rlgame or catsdogs}
here="$(cd "$(dirname "$0")" && pwd)/$name"
cd "$here/../.."
case $name in
  slider5) flags=(--size 5 --blocked random --first random); final=(--b alphabeta --movetime 0.1 --games 100) ;;
  slider6) flags=(--size 6 --blocked random --first random); final=(--b alphabeta --movetime 0.05 --games 60) ;;
  rlgame) flags=(--game rlgame); final=(--b alphabeta:depth=4 --games 100) ;;
  catsdogs) flags=(--game catsdogs); final=(--b alphabeta:depth=4 --games 100) ;;
  *) echo "unknown experiment $name" >&2; exit 2 ;;
esac
go build -o /tmp/sliderzero-exp ./cmd/sliderzero
sz=/tmp/sliderzero-exp
run=checkpoints/$name
rm -rf "$run"
$sz train --config "$here/config.json" --run "$run" --quiet
$sz report --run "$run"
cp "$run"/report.md "$run"/*.png "$here/"
$sz match --a "net:checkpoint=$run/checkpoint.msgpack" "${final[@]}" "${flags[@]}" \
  --records "$here/final.jsonl" 2>/dev/null | tee "$here/final.txt"
case $name in
  slider*) $sz export --checkpoint "$run/checkpoint.msgpack" --out "checkpoints/slider-${name#slider}x${name#slider}.player" ;;
esac
