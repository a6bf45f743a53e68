#!/bin/bash
# Self-play speed with training beside it, before issue 18 (sz-17) and after (sz-18): the default and slider5 configurations, 2 minutes each, no evaluation.
cd "$(dirname "$0")/../.."
for cfg in speed-default speed-slider5; do
  for b in 17 18; do
    rm -rf checkpoints/ab-$cfg-$b
    ./sz-$b train --config experiments/inference/$cfg.json --run checkpoints/ab-$cfg-$b --quiet
  done
done
