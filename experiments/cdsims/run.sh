#!/usr/bin/env bash
# Cats & Dogs, the self-play search's budget as a lever (issue 33):
# sims64.json (experiments/cdfeatures' features arm: the catsdogs60
# configuration with features=1 on one worker for 20 minutes, 64
# simulations a move) and sims200.json (the same with 200) train side by
# side, so both share the machine's two cores and its load; then each is
# exported and plays alphabeta:time=0.5 at an equal 0.5 s a move, colours
# swapped in pairs, two games at once, with nothing else running.
# Each step skips what its output already holds.
# Usage: bash experiments/cdsims/run.sh   (GAMES=20 by default)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cds ./cmd/sliderzero
sz=/tmp/sliderzero-cds
games=${GAMES:-20}
source "$here/../lib.sh"
catsdogs_arms cdsims sims64 sims200
