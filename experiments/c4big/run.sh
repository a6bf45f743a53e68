#!/usr/bin/env bash
# Issue 64's lever "a larger network": the shipped Connect Four
# configuration (experiments/shipc4h: MLP with the threat planes, 128
# simulations a self-play move, replay window 300,000, the same learning
# rate schedule) with the trunk four times wider in parameters (MLP 512x3
# instead of 256x3) and the default sample ratio 4 (the fused learner of
# issue 66), trained 90 minutes from scratch as the shipped one was, then
# judged beside the shipped player on Pons' five labelled sets and L1_R3's
# labelled positions (network alone and 600 simulations) and on the
# project's two critical sets at 600 simulations.
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
c4_lever c4big
