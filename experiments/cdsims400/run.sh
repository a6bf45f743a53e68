#!/usr/bin/env bash
# Cats & Dogs: does a self-play search larger than 200 simulations help
# further (issue 33)? experiments/cdsims found 200 better than 64. Arms:
# sims400.json (cdsims' sims200 configuration with search.sims 400) and
# sims200s2.json (sims200 again with seed 2, for the noise between two
# runs of one configuration), one worker each, 20 minutes side by side;
# then each exported player against alphabeta:time=0.5 at an equal 0.5 s
# a move, 20 games, colours swapped in pairs, two at once, with nothing
# else running. Each step skips what its output already holds.
# Usage: bash experiments/cdsims400/run.sh   (GAMES=20 by default)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-cds4 ./cmd/sliderzero
sz=/tmp/sliderzero-cds4
games=${GAMES:-20}
source "$here/../lib.sh"
catsdogs_arms cdsims400 sims200s2 sims400
