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
p=${1:-checkpoints/catsdogs.player}
name=${2:-$(basename "$p" .player)}
games=${GAMES:-20}
out="$here/match5-$name-$games"
[ -f "$out.txt" ] || {
  /tmp/sliderzero-cd5 match --game catsdogs --a "player:$p,time=5,threads=1" --b alphabeta:time=5 \
    --games "$games" --parallel 2 --seed 1 --records "$out.jsonl" 2>/dev/null > "$out.txt.tmp"
  mv "$out.txt.tmp" "$out.txt"
}
python3 experiments/cdfeatures/tally.py "$out.jsonl"
