#!/bin/bash
# Issue 66: the default ten-minute run before the fused training step
# (sz-old, built at commit 0b710b8) and after it (sz-new) with
# sample_ratio 4, one after the other, alone on the machine; then their
# reports. Run from the repository's root:
#   bash experiments/learner/ab.sh
set -euo pipefail
OLD=${OLD:-/tmp/sz-old}
NEW=${NEW:-/tmp/sz-new}
for run in default-old ratio4-new; do rm -rf checkpoints/learner-$run; done
"$OLD" train --run checkpoints/learner-default-old --quiet
"$NEW" train --run checkpoints/learner-ratio4-new --config experiments/learner/config-ratio4.json --quiet
for run in default-old ratio4-new; do "$NEW" report --run checkpoints/learner-$run; done
