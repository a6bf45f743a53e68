#!/bin/bash
# One change at a time against the built-in configuration (baseline.json),
# ten training minutes each, same seed; accuracy against perfect play at
# every evaluation (2 minutes). Usage: bash experiments/ablation19/run.sh NAME...
set -euo pipefail
cd "$(dirname "$0")/../.."
for name in "$@"; do
  rm -rf "checkpoints/abl19-$name"
  go run ./cmd/sliderzero train --config "experiments/ablation19/$name.json" --run "checkpoints/abl19-$name" --quiet
  go run ./cmd/sliderzero report --run "checkpoints/abl19-$name" > /dev/null
done
