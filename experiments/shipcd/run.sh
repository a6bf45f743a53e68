#!/usr/bin/env bash
# Cats & Dogs re-trained with today's pipeline and the plies head (issue 33,
# item 4 and its Cats & Dogs figure): the hour preset for catsdogs with
# net.moves_left, exported, then measured beside the shipped player in the
# same conditions: 100 games each at an equal 0.5 s a move against
# alphabeta:time=0.5, colours swapped in pairs, two games at once.
# Each step skips what a file already holds.
# Usage: bash experiments/shipcd/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipcd ./cmd/sliderzero
sz=/tmp/sliderzero-shipcd
run=checkpoints/shipcd
new=checkpoints/shipcd.player
source "$here/../lib.sh"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new"
for who in new old; do
  file=$new
  if [ "$who" = old ]; then file=checkpoints/catsdogs.player; fi
  step "match-$who.txt" $sz match --game catsdogs --a "player:$file,time=0.5,threads=1" --b alphabeta:time=0.5 \
    --games 100 --parallel 2 --seed 1 --records "$here/match-$who.jsonl"
done
tail -n 12 "$here"/match-*.txt
