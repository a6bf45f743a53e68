#!/usr/bin/env bash
# The shipped Cats & Dogs player at an equal 5 s a move against
# alphabeta:time=5 (lib.sh's match_alphabeta, as cdsims' match5.sh: 20
# games, colours swapped in pairs, two at once, each player on one
# thread, seed 1), with OPTIONS added to the player's spec (e.g.
# max_nodes=16777216); then the plies a seat and the seconds each side
# spent a move. About 50 minutes when both sides use their time. Nothing
# else may run beside it: the budget is time.
# Usage: bash experiments/cdfull/run.sh NAME [OPTIONS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cdfull ./cmd/sliderzero
sz=/tmp/sliderzero-cdfull
games=20
source "$here/../lib.sh"
match_alphabeta 5 "match5-$1" "player:checkpoints/catsdogs.player${2:+,$2}"
python3 experiments/cdfeatures/tally.py "$here/match5-$1.jsonl"
python3 experiments/cdfull/seconds.py "$here/match5-$1.jsonl"
