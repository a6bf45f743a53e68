#!/usr/bin/env bash
# Cats & Dogs: a longer run at 200 self-play simulations (issue 33).
# The shipped catsdogs.player is experiments/cdsims' sims200 arm after 20
# minutes on one worker. This continues that run (a copy of its folder)
# in two legs of 30 minutes on two workers (each leg's log in
# train-legN.log; a leg that finished is not run again), exports it, and
# plays it against alphabeta:time=0.5 at an equal 0.5 s a move as cdsims
# did (20 games, colours swapped in pairs, two at once), with nothing
# else running. The issue's 5 s match:
#   bash experiments/cdsims/match5.sh checkpoints/cdlong.player cdlong
# Usage: bash experiments/cdlong/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cdl ./cmd/sliderzero
sz=/tmp/sliderzero-cdl
run=checkpoints/cdlong
if [ ! -f "$run.player" ]; then
  if [ ! -d "$run" ]; then
    [ -f checkpoints/cdsims-sims200/checkpoint.msgpack ] || bash experiments/cdsims/run.sh
    cp -r checkpoints/cdsims-sims200 "$run.tmp" && rm -f "$run.tmp/lock" && mv "$run.tmp" "$run"
  fi
  for leg in 1 2; do
    log="$here/train-leg$leg.log"
    grep -q "the run is over" "$log" 2>/dev/null && continue
    $sz train --resume "$run" --minutes 30 --workers 2 --quiet > "$log" 2>&1
  done
  $sz export --checkpoint "$run/checkpoint.msgpack" --out "$run.player"
fi
games=20
source "$here/../lib.sh"
match_alphabeta_half cdlong "$run.player"
python3 experiments/cdfeatures/tally.py "$here/match-cdlong-$games.jsonl"
