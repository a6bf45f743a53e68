#!/usr/bin/env bash
# How far from the end lie the positions the shipped players still get
# wrong? Both critical sets of each game, the shipped player at its
# default budget and at a small one, misses written by `accuracy
# --misses` and tallied by tally.awk. Each step skips what a file holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-missdepth ./cmd/sliderzero
sz=/tmp/sliderzero-missdepth
source "$here/../lib.sh"
[ -f checkpoints/tables/slider-5x5.table ] || $sz solve --size 5 --out checkpoints/tables/slider-5x5.table
step slider-accuracy.txt $sz accuracy --table checkpoints/tables/slider-5x5.table --parallel 2 --misses "$here/slider-misses.tsv" \
  --player "player:checkpoints/slider-5x5.player;player:checkpoints/slider-5x5.player,sims=100"
step connect4-accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
  --misses "$here/connect4-misses.tsv" --player "player:checkpoints/connect4.player;player:checkpoints/connect4.player,sims=200"
for g in slider connect4; do
  awk -F'\t' -f "$here/tally.awk" "$here/$g-misses.tsv" | sort
done | tee "$here/tally.txt"
