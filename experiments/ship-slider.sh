#!/usr/bin/env bash
# Re-train a larger Slider board's player with today's defaults (issue 33,
# item 4) and measure it beside the player it would replace, in the same
# conditions: train experiments/shipN/config.json (the hour preset at that
# size), export the network, then the issue's match for each of the two
# players, 100 games at an equal 0.1 s a move against alphabeta:time=0.1
# on the referee's layouts, colours swapped within pairs, first player
# drawn per pair. Each step skips what a file already holds.
# Usage: bash experiments/ship-slider.sh SIZE   (6 or 7)
set -euo pipefail
size=${1:?board size: 6 or 7}
cd "$(dirname "$0")/.."
here=experiments/ship$size
run=checkpoints/ship$size
new=checkpoints/ship$size.player
old=checkpoints/slider-${size}x${size}.player
go build -o /tmp/sliderzero-ship ./cmd/sliderzero
sz=/tmp/sliderzero-ship
if [ ! -f "$run/report.md" ]; then
  rm -rf "$run"
  $sz train --config "$here/config.json" --run "$run" --quiet
  $sz report --run "$run"
fi
cp "$run"/report.md "$run"/*.png "$here/"
# The shipped players' default search: 3200 simulations on 6x6, 800 on
# 7x7 (experiments/run.sh); the match below plays both at 0.1 s a move.
sims=800
if [ "$size" = 6 ]; then sims=3200; fi
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims "$sims"
for who in new old; do
  file=$new
  if [ "$who" = old ]; then file=$old; fi
  out=$here/match-$who
  [ -f "$out.txt" ] && continue
  rm -f "$out.jsonl"
  $sz match --a "player:$file,threads=1" --b alphabeta:time=0.1 --movetime 0.1 --games 100 --size "$size" \
    --blocked random --first random --parallel 2 --seed 1 --records "$out.jsonl" 2>/dev/null > "$out.tmp"
  mv "$out.tmp" "$out.txt"
done
tail -n 20 "$here"/match-*.txt
