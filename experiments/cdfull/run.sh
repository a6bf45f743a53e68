#!/usr/bin/env bash
# The shipped Cats & Dogs player at an equal 5 s a move against
# alphabeta:time=5 (cdsims' match5.sh: 20 games, colours swapped in pairs,
# two at once, each player on one thread, --seed 1), with OPTIONS added to
# the player's spec (e.g. max_nodes=16777216); then the plies a seat and
# the seconds each side spent a move. About 50 minutes when both sides
# use their time. Nothing else may run beside it: the budget is time.
# Usage: bash experiments/cdfull/run.sh NAME [OPTIONS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cdfull ./cmd/sliderzero
name=$1
spec="player:checkpoints/catsdogs.player,time=5,threads=1${2:+,$2}"
out="$here/match5-$name"
[ -f "$out.txt" ] || {
  /tmp/sliderzero-cdfull match --game catsdogs --a "$spec" --b alphabeta:time=5 \
    --games 20 --parallel 2 --seed 1 --records "$out.jsonl" 2>/dev/null > "$out.txt.tmp"
  mv "$out.txt.tmp" "$out.txt"
}
python3 experiments/cdfeatures/tally.py "$out.jsonl"
python3 experiments/cdfull/seconds.py "$out.jsonl"
