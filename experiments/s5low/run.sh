#!/usr/bin/env bash
# Issue 64's lever that moved Connect Four (experiments/c4low), on Slider
# 5x5: the 5x5 network shipped until this run replaced it (experiments/
# ship5h's MLP 128x3, whose run ended at a learning rate of 0.00025;
# checkpoints/ship5h.player, which lib.sh takes from git history)
# trained 60 minutes more by self-play at 0.0001, everything else as
# ship5h. Exported at the shipped
# default budget (51,200 simulations), then both critical sets of the 5x5
# table at that budget and at 100 simulations, new and shipped, paired
# (misses.tsv). Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
ship5h_player
s5_lever s5low ship5h
