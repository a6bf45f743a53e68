#!/usr/bin/env bash
# Cats & Dogs with the rules' feature planes (issue 33, "what the network
# sees"): base.json (the catsdogs60 configuration on one worker, 20
# minutes) and features.json (the same with the game's features=1) train
# side by side, so both share the machine's two cores and its load; then
# each is exported and plays alphabeta:time=0.5 at an equal 0.5 s a move,
# colours swapped in pairs, two games at once, with nothing else running.
# Each step skips what its output already holds.
# Usage: bash experiments/cdfeatures/run.sh   (GAMES=20 by default)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cdf ./cmd/sliderzero
sz=/tmp/sliderzero-cdf
games=${GAMES:-20}
source "$here/../lib.sh"
train_side_by_side cdfeatures base features
for name in base features; do
  run=checkpoints/cdfeatures-$name
  [ -f "$run.player" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$run.player"
  flags=()
  [ "$name" = features ] && flags+=(--features 1)
  match_alphabeta_half "$name" "$run.player" "${flags[@]}"
done
python3 "$here/tally.py" "$here"/match-*-"$games".jsonl
