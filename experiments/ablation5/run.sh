#!/usr/bin/env bash
# Ablations on Slider 5x5: each variant trains 10 minutes on one self-play
# worker from the same seed; variants run two at a time, side by side, so
# that each pair shares the machine's two cores and its load. Accuracy
# against perfect play and the ladder Elo are measured every 2 minutes.
# Run from anywhere: bash experiments/ablation5/run.sh a-baseline b-targets
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-abl ./cmd/sliderzero
sz=/tmp/sliderzero-abl
# Solve the table once before the runs start, not inside one of them.
[ -f checkpoints/tables/slider-5x5.table ] || $sz solve --size 5 --out checkpoints/tables/slider-5x5.table
pids=()
for name in "$@"; do
  run=checkpoints/ablation5-$name
  rm -rf "$run"
  $sz train --config "$here/$name.json" --run "$run" > "$here/$name.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for name in "$@"; do $sz report --run checkpoints/ablation5-$name > /dev/null; done
