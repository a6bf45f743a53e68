#!/usr/bin/env bash
# Levers of issue 33 on Slider 5x5, one at a time: each variant trains
# ten minutes on one self-play worker from seed 1; variants run two at a
# time, side by side, so that each pair shares the machine's two cores and
# its load (the baseline runs beside a lever, or is re-run beside each).
# Every 5 minutes the network (100 simulations) is measured on the 5x5
# table's 1000 real-game and 1000 random critical positions and converts
# 100 won positions against the perfect defender.
# Usage (from anywhere): bash experiments/strength2/run.sh A B
# MINUTES=30 overrides the training minutes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-s2 ./cmd/sliderzero
sz=/tmp/sliderzero-s2
[ -f checkpoints/tables/slider-5x5.table ] || $sz solve --size 5 --out checkpoints/tables/slider-5x5.table
pids=()
for name in "$@"; do
  run=checkpoints/strength2-$name
  rm -rf "$run"
  extra=()
  [ -n "${MINUTES:-}" ] && extra=(--minutes "$MINUTES")
  $sz train --config "$here/$name.json" --run "$run" --quiet "${extra[@]}" > "$here/$name.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for name in "$@"; do
  $sz report --run checkpoints/strength2-$name > /dev/null
  grep -h '"accuracy"' checkpoints/strength2-$name/metrics.jsonl > "$here/$name.accuracy.jsonl" || true
done
