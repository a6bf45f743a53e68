#!/usr/bin/env bash
# The moves-left utility's settings at play time in Cats & Dogs (issue 33's
# Cats & Dogs figure): 30 minutes of shipcd's configuration (the hour
# preset with net.moves_left), exported, then the same player with each
# setting of the utility at an equal 0.5 s a move against
# alphabeta:time=0.5, colours swapped in pairs, two games at once.
# Each step skips what a file already holds. Run nothing timed beside the
# matches.
# Usage: bash experiments/cdutility/run.sh [ARM...]   (default: every arm)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cdutility ./cmd/sliderzero
sz=/tmp/sliderzero-cdutility
run=checkpoints/cdutility
file=checkpoints/cdutility.player
source "$here/../lib.sh"
train_and_report
[ -f "$file" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$file"
declare -A arms=(
  [default]=""
  [off]=",movesleft=false"
  [th10]=",movesleft_threshold=0.1"
  [th10-strong]=",movesleft_threshold=0.1,movesleft_slope=0.01,movesleft_effect=0.2"
  [th05-stronger]=",movesleft_threshold=0.05,movesleft_slope=0.02,movesleft_effect=0.3"
)
games=${GAMES:-20}
todo=("$@")
[ $# -gt 0 ] || todo=(default th10 th10-strong th05-stronger off)
for a in "${todo[@]}"; do
  step "$a-$games.txt" $sz match --game catsdogs --a "player:$file,time=0.5,threads=1${arms[$a]}" \
    --b alphabeta:time=0.5 --games "$games" --parallel 2 --seed 1 --records "$here/$a-$games.jsonl"
  sed -n '5,9p' "$here/$a-$games.txt" | sed "s/^/$a: /"
done
