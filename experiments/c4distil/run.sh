#!/usr/bin/env bash
# Issue 64's lever "distilled networks": the shipped Connect Four
# player's network (MLP 256x3; start_from checkpoints/shipc4h90.player,
# the player shipped until c4low, which lib.sh takes from git history)
# trained on
# 76,096 self-play games (as many as c4wide2 played in its hour, so that
# the run's work does not depend on what runs beside it) that
# experiments/c4wide2's 512x3 network plays (teacher:
# checkpoints/c4wide2.player, which must exist: bash
# experiments/c4wide2/run.sh), at c4wide2's rate (0.0001) and samples a
# position (4); everything else as experiments/c4low, its control
# without a teacher. Judged as c4wide2 is (Pons' sets at one and
# 600 simulations, the critical sets at 600).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
source "$here/../lib.sh"
shipc4h90_player
c4_lever c4distil
