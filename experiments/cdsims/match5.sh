#!/usr/bin/env bash
# The issue's own measure for Cats & Dogs: a player at an equal 5 s a move
# against alphabeta:time=5, GAMES games (default 20), colours swapped in
# pairs, two games at once (each player on one thread), with nothing else
# running; then the plies a seat.
# Usage: bash experiments/cdsims/match5.sh [PLAYER] [NAME]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cd5 ./cmd/sliderzero
sz=/tmp/sliderzero-cd5
p=${1:-checkpoints/catsdogs.player}
name=${2:-$(basename "$p" .player)}
games=${GAMES:-20}
source "$here/../lib.sh"
match_alphabeta 5 "match5-$name-$games" "player:$p"
python3 experiments/cdfeatures/tally.py "$here/match5-$name-$games.jsonl"
