#!/usr/bin/env bash
# Issue 64: the shipped Slider 6x6 and 7x7 players at 0.1 s a move (one
# thread) against alpha-beta at 1 s a move (ten times their time), 100
# games each with colours swapped, on the course referee's random
# layouts; the games are kept for the open-board tally.
#   bash experiments/strength3/slider67.sh [6|7]...
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/strength3
sz=${SZ:-go run ./cmd/sliderzero}
for n in "${@:-6 7}"; do
  [ -f "$here/slider$n.txt" ] && continue
  $sz match --game slider --size "$n" --a "player:checkpoints/slider-${n}x${n}.player,threads=1,time=0.1" \
    --b alphabeta:time=1 --games 100 --parallel 2 --seed 1 --records "$here/slider$n.jsonl" >"$here/slider$n.txt.tmp"
  mv "$here/slider$n.txt.tmp" "$here/slider$n.txt"
done
