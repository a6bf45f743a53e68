#!/usr/bin/env bash
# Issue 63: runs made to stall on purpose, beside healthy ones, each six
# training minutes on one self-play worker with an evaluation every
# minute: is each stall flagged by its third evaluation, with its reason,
# and is neither healthy run flagged at any? Pairs train side by side:
# plycap (Slider 5x5 with a 12-ply cap) beside norandom (Connect Four
# with no random plies, no temperature and no root noise: a deterministic
# game played deterministically), then lr (Slider with a learning rate of
# 0.5, 250 times the default) beside healthy (Slider's default), then
# healthy-c4 (Connect Four's default) alone. Each run's warnings are
# kept in its log; findings.txt has each report's findings.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-stall ./cmd/sliderzero
sz=/tmp/sliderzero-stall
[ -f checkpoints/tables/slider-5x5.table ] || $sz solve --size 5 --out checkpoints/tables/slider-5x5.table
# side_by_side ARM...: train the arms at once, each logging (not quiet:
# the log's evaluations carry the warnings), skipping arms trained.
side_by_side() {
  local pids=() name
  for name in "$@"; do
    [ -f "checkpoints/stall-$name/checkpoint.msgpack" ] && continue
    $sz train --config "$here/$name.json" --run "checkpoints/stall-$name" > "$here/$name.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
}
side_by_side plycap norandom
side_by_side lr healthy
side_by_side healthy-c4
: > "$here/findings.txt"
for name in plycap norandom lr healthy healthy-c4; do
  run=checkpoints/stall-$name
  echo "== $name" >> "$here/findings.txt"
  $sz report --run "$run" | grep -v '^report written' >> "$here/findings.txt" || true
  grep -h 'evaluation: Elo\|warning:' "$here/$name.log" > "$here/$name.warnings.txt" || true
done
cat "$here/findings.txt"
