#!/usr/bin/env bash
# The exact tables of every 5x5 layout of the referee's scheme (the open
# board, the nine single interior cells, the six diagonal pairs), values
# only, for the matches against perfect play (run.sh). Skips tables that
# exist. About a minute and 0.5 GB each on two cores; 61 MB each on disk.
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o /tmp/sliderzero-perfect5 ./cmd/sliderzero
while read -r layout; do
  out=checkpoints/tables/slider-5x5-${layout//,/-}.table
  if [ "$layout" = none ]; then out=checkpoints/tables/slider-5x5.table; fi
  [ -f "$out" ] && continue
  /tmp/sliderzero-perfect5 solve --size 5 --blocked "$layout" --positions 0 --out "$out"
done < experiments/perfect5/layouts.txt
