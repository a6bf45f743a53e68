#!/usr/bin/env bash
# The strength suite of issue 10 for one trained player: 100 games against
# each opponent from the game's real starts, on open boards and on the
# referee's random layouts, the first player drawn per pair of games and
# colours swapped within a pair; the player at its file's default search.
# Losses are what matters: the suite prints them per opponent and layout,
# and keeps every game under experiments/NAME/strength/.
# Usage: bash experiments/strength.sh NAME PLAYERFILE SIZE
set -euo pipefail
name=${1:?experiment name}; file=${2:?player file}; size=${3:?board size}
here="$(cd "$(dirname "$0")" && pwd)/$name/strength"
cd "$(dirname "$0")/.."
mkdir -p "$here"
go build -o /tmp/sliderzero-strength ./cmd/sliderzero
sz=/tmp/sliderzero-strength
opponents=("alphabeta:depth=2" "alphabeta:depth=4" "alphabeta:depth=6" "alphabeta:depth=8" "alphabeta:depth=10" "alphabeta:time=0.1" "mcts:sims=10000")
summary="$here/summary.txt"
: > "$summary"
for layout in none random; do
  for opp in "${opponents[@]}"; do
    tag="${layout}-${opp//[:=]/-}"
    rm -f "$here/$tag.jsonl"
    $sz match --a "player:$file" --b "$opp" --games 100 --size "$size" --blocked "$layout" --first random \
      --records "$here/$tag.jsonl" > "$here/$tag.txt" 2>/dev/null
    total=$(grep '^total' "$here/$tag.txt")
    echo "$layout $opp: $total" | tee -a "$summary"
  done
done
