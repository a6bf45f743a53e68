#!/usr/bin/env bash
# Issue 64's lever "longer training", without widening: the control that
# experiments/c4wide2 lacks. The shipped Connect Four player's network
# (MLP 256x3, start_from the player file) trained 60 minutes more by
# self-play at c4wide2's lower learning rate (0.0001), everything else as
# the shipped run (experiments/shipc4h); then judged as c4wide2 is (Pons'
# sets at one and 600 simulations, the critical sets at 600).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
sz=${SZ:-/tmp/sliderzero-c4low}
[ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
run=checkpoints/c4low
new=checkpoints/c4low.player
source "$here/../lib.sh"
train_and_report
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 12800
c4_benchmark "$new"
