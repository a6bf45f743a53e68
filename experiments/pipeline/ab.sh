#!/bin/bash
# A/B self-play speed: old (before issue 17) and new binaries, same config, alternating.
cd "$(dirname "$0")/../.."
for i in 1 2; do
  for b in base 17; do
    rm -rf checkpoints/ab-$b-$i
    ./sz-$b train --config experiments/pipeline/speed-$b.json --run checkpoints/ab-$b-$i --quiet
  done
done

