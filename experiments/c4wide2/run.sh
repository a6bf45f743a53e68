#!/usr/bin/env bash
# Issue 64's lever "longer training", on the widened network: the 512x3
# network of experiments/c4wide (the shipped player's network widened and
# trained 35 minutes) trained 60 minutes more by self-play at a lower
# learning rate (0.0001, a fifth of the shipped run's first and 0.4 of its
# last), everything else as c4wide; then judged as c4wide is (Pons' sets
# at one and 600 simulations, the critical sets at 600).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
c4_lever c4wide2
