#!/usr/bin/env bash
# The exact tables of every 5x5 layout of the referee's scheme (the open
# board, the nine single interior cells, the six diagonal pairs), for the
# matches against perfect play (run.sh). Skips tables that exist. The
# blocked layouts' tables hold values only; the open board's is the table
# every run and `accuracy --table` share, so it keeps its two sets of
# critical positions, as training's own "auto" table does. About a minute
# and 0.5 GB each on two cores; 61 MB each on disk.
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o /tmp/sliderzero-perfect5 ./cmd/sliderzero
while read -r layout; do
  out=checkpoints/tables/slider-5x5-${layout//,/-}.table
  sets=(--positions 0)
  if [ "$layout" = none ]; then out=checkpoints/tables/slider-5x5.table sets=(); fi
  [ -f "$out" ] && continue
  /tmp/sliderzero-perfect5 solve --size 5 --blocked "$layout" "${sets[@]}" --out "$out"
done < experiments/perfect5/layouts.txt
