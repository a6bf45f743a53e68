#!/usr/bin/env bash
# Cats & Dogs with the rules' feature planes (experiments/cdfeatures),
# trained for shipping (issue 33's Cats & Dogs figure): catsdogs60's
# configuration with features=1, 45 minutes on both cores, no evaluation
# during the run; exported, then GAMES games (default 40: 20 a seat) at an
# equal 0.5 s a move against alphabeta:time=0.5, colours swapped in pairs,
# two games at once, with nothing else running.
# Each step skips what a file already holds.
# Usage: bash experiments/shipcd2/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipcd2 ./cmd/sliderzero
sz=/tmp/sliderzero-shipcd2
run=checkpoints/shipcd2
new=checkpoints/shipcd2.player
games=${GAMES:-40}
source "$here/../lib.sh"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new"
step "match-$games.txt" $sz match --game catsdogs --a "player:$new,time=0.5,threads=1" --b alphabeta:time=0.5 \
  --games "$games" --parallel 2 --seed 1 --records "$here/match-$games.jsonl"
python3 "$here/../cdfeatures/tally.py" "$here/match-$games.jsonl"
