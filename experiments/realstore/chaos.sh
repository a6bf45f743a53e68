#!/usr/bin/env bash
# Issue 66's chaos run: run.sh for 30 minutes with producers and the
# trainer killed at random and the server stopped twice, beside the same
# run undisturbed (CALM=1, its own server), started together so that both
# share the machine alike; then each trainer's network against perfect
# play on Slider 4x4's critical positions (a solver table's two sets, at
# 100 simulations a move).
#
#   bash experiments/realstore/chaos.sh        # OUT=/tmp/chaos-TIME
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/chaos-$(date +%s)}
MINUTES=${MINUTES:-30}
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "OUT=$OUT holds files already: give an empty or new folder" >&2; exit 2
fi
mkdir -p "$OUT"
OUT=$OUT/chaos MINUTES=$MINUTES OUTAGES=2 SEED=11 bash experiments/realstore/run.sh >"$OUT/chaos.log" 2>&1 &
CHAOS=$!
OUT=$OUT/calm MINUTES=$MINUTES CALM=1 SEED=11 bash experiments/realstore/run.sh >"$OUT/calm.log" 2>&1 &
CALM=$!
status=0
wait $CHAOS || status=$?
wait $CALM || status=$?
SZ=$OUT/chaos/sliderzero
"$SZ" solve --size 4 --out "$OUT/t4.table" >/dev/null
"$SZ" accuracy --table "$OUT/t4.table" --player "net:checkpoint=$OUT/chaos/trainer/checkpoint.msgpack;net:checkpoint=$OUT/calm/trainer/checkpoint.msgpack" | tee "$OUT/accuracy.txt"
echo "run.sh exit statuses: $status (0: both added up)"
exit $status
