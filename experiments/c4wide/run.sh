#!/usr/bin/env bash
# Issue 64's lever "a larger network", without starting over: the shipped
# Connect Four player's network (MLP 256x3, 90 minutes of self-play;
# checkpoints/shipc4h90.player since c4low replaced it, which lib.sh
# takes from git history)
# widened to 512x3 keeping its function (start_from, model.Weights.Widen)
# and trained 35 minutes more by self-play at the shipped run's last
# learning rates (0.0005, then 0.00025 from step 20,000), then judged as
# experiments/c4big's network is: Pons' five labelled sets and L1_R3's
# labelled positions (network alone and 600 simulations), and the
# project's two critical sets at 600 simulations beside the shipped player.
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
shipc4h90_player
c4_lever c4wide
