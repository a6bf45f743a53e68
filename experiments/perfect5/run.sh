#!/usr/bin/env bash
# A player against perfect play on every 5x5 layout of the referee's scheme
# (issue 33's figure for the shipped 5x5 player): the open board, the nine
# single interior cells and the six diagonal pairs, each with H and with V
# first, the player on both sides. First from each layout's own start (2
# games a first player: the player as H, then as V), then from 20 starts
# a first player 6 random plies in (colours swapped in pairs). Then the
# tally by each start's exact value for the player.
# Usage: bash experiments/perfect5/run.sh [PLAYER NAME]   (default: the shipped player, "shipped")
# KINDS=exact (or random) runs one of the two suites; LAYOUTS="b4 b4,d2"
# plays only those layouts (as layouts.txt spells them).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=experiments/perfect5
player=${1:-player:checkpoints/slider-5x5.player,threads=1}
name=${2:-shipped}
bash $here/solve.sh
sz=/tmp/sliderzero-perfect5
for kind in ${KINDS:-exact random}; do
  out=$here/$name-$kind.jsonl
  [ -f "$out" ] && continue
  rm -f "$out.tmp"
  while read -r layout; do
    table=checkpoints/tables/slider-5x5-${layout//,/-}.table
    if [ "$layout" = none ]; then table=checkpoints/tables/slider-5x5.table; fi
    for first in H V; do
      args=(--games 2)
      if [ $kind = random ]; then args=(--games 20 --random-plies 6); fi
      $sz match --a "$player" --b "solver:table=$table" --size 5 --blocked "$layout" --first $first \
        "${args[@]}" --seed 1 --parallel 2 --records "$out.tmp" --append > /dev/null 2>&1
    done
  done < <(if [ -n "${LAYOUTS:-}" ]; then printf '%s\n' $LAYOUTS; else cat $here/layouts.txt; fi)
  mv "$out.tmp" "$out"
done
go build -C $here # the tally (experiments/ is its own module)
for kind in ${KINDS:-exact random}; do
  $here/perfect5 $here/$name-$kind.jsonl > $here/$name-$kind.txt
  head -n 18 $here/$name-$kind.txt | tail -n 1
done
