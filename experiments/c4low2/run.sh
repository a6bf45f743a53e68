#!/usr/bin/env bash
# Issue 64's lever that moved Connect Four (experiments/c4low: the
# network an hour more at a lower learning rate), once more: the shipped
# player (checkpoints/c4low.player, which experiments/c4low/run.sh makes;
# trained at 0.0001) an hour more at 0.00005, everything else as c4low; then judged as c4low was, paired with the
# shipped player (c4_benchmark). Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
c4_lever c4low2
