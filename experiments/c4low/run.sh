#!/usr/bin/env bash
# Issue 64's lever "longer training", without widening: the control that
# experiments/c4wide2 lacks. The shipped Connect Four player's network
# (MLP 256x3; start_from checkpoints/shipc4h90.player, the player
# shipped until this run replaced it, which lib.sh takes from git
# history) trained 60 minutes more by self-play at c4wide2's lower
# learning rate (0.0001), everything else as the shipped run
# (experiments/shipc4h); then judged as c4wide2 is (Pons'
# sets at one and 600 simulations, the critical sets at 600).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
shipc4h90_player
c4_lever c4low
