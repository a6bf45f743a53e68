#!/usr/bin/env bash
# Issue 23's measurement of a game trained for an hour (catsdogs60,
# rlgame60): train with experiments/NAME/config.json (or resume the run if
# its folder holds one), write the report, export the player to
# checkpoints/GAME.player, then, each step after the last one's file exists
# (so a killed script picks up where it stopped):
#   tournament.txt  the run's snapshots and alpha-beta at node budgets, at
#                   100 simulations (the ladder that keeps measuring)
#   match05.txt     100 games at an equal 0.5 s a move against
#                   alphabeta:time=0.5s, colours swapped in pairs
#   ab05.txt        alpha-beta against itself at 0.5 s (its own result in
#                   each seat, beside the agent's)
#   match5.txt      Cats & Dogs only: games at the original 5 s a move
#   prove.txt       Cats & Dogs only: each game of match05 proven backwards
# Two games at once on the two cores; run nothing else beside it.
# Run from the repository: bash experiments/hour.sh catsdogs60   (rlgame60)
set -euo pipefail
name=${1:?experiment: catsdogs60 or rlgame60}
here="$(cd "$(dirname "$0")" && pwd)/$name"
cd "$here/../.."
go build -o /tmp/sliderzero-hour ./cmd/sliderzero
sz=/tmp/sliderzero-hour
run=checkpoints/$name
case $name in
  catsdogs60) game=catsdogs; games5=${GAMES5:-4} ;;
  rlgame60) game=rlgame; games5=0 ;;
  *) echo "unknown experiment $name" >&2; exit 2 ;;
esac
player=checkpoints/$game.player

source "$here/../lib.sh"
train_and_report
[ -f "$player" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$player"

snaps=$(ls "$run"/snapshots/weights-*.msgpack | sed 's/^/net:checkpoint=/' | paste -sd ';')
step tournament.txt $sz tournament --game $game --games 20 --parallel 2 \
  --players "$snaps;alphabeta:nodes=100000;alphabeta:nodes=1000000;net:checkpoint=$run/checkpoint.msgpack"
step match05.txt $sz match --game $game --a "player:$player" --b alphabeta --movetime 0.5 --games 100 \
  --parallel 2 --records "$here/match05.jsonl"
step ab05.txt $sz match --game $game --a alphabeta --b alphabeta --movetime 0.5 --games 20 \
  --parallel 2 --records "$here/ab05.jsonl"
if [ "$games5" -gt 0 ]; then
  step match5.txt $sz match --game $game --a "player:$player" --b alphabeta --movetime 5 --games "$games5" \
    --parallel 2 --records "$here/match5.jsonl"
  step prove.txt $sz prove --records "$here/match05.jsonl" --nodes 2000000 --table-bits 24
fi
