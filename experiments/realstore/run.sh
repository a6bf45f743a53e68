#!/usr/bin/env bash
# experiments/realstore: a trainer and two selfplay processes meet at a
# bucket of a real S3 server (SeaweedFS, started here on loopback with its
# data in a temporary folder), on a tiny fast configuration (Slider 4x4, a
# small network), for MINUTES minutes (default 6). Producers and the
# trainer are killed with SIGKILL at random moments and started again (the
# trainer by train --resume), and the server is stopped and started again
# OUTAGES times (default 1), evenly spaced. CALM=1 instead kills nothing
# and stops nothing: the undisturbed run to compare with. Afterwards
# tally/ adds up the run's games and the lines of the processes are
# counted. Everything runs under nice -n 19.
#
#   bash experiments/realstore/run.sh            # OUT=/tmp/realstore-TIME
#   MINUTES=3 SEED=7 SZ_WEED=/path/to/weed bash experiments/realstore/run.sh
#   MINUTES=30 OUTAGES=2 bash experiments/realstore/run.sh   # issue 66's chaos run
#
# Without SZ_WEED and without weed on PATH it builds SeaweedFS's weed (the
# version the tests name, s3test.WeedVersion) from the module proxy into
# ~/.cache/sliderzero/weed (experiments/weed.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
MINUTES=${MINUTES:-6}
SEED=${SEED:-1}
OUTAGES=${OUTAGES:-1}
CALM=${CALM:-0}
OUT=${OUT:-/tmp/realstore-$(date +%s)}
mkdir -p "$OUT"
RANDOM=$SEED
say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/events.log"; }
source experiments/weed.sh
weed_setup
nice -n 19 go build -tags cloud -o "$OUT/sliderzero" ./cmd/sliderzero
SZ=$OUT/sliderzero
LOC="$LOC_BASE/realstore?$LOC_QUERY"

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  [ -n "$WEED_PID" ] && stop_weed
}
trap cleanup EXIT

start_weed
weed_bucket

# The tiny configuration: Slider 4x4, an MLP of width 32 and depth 2, 32
# simulations, rounds of 64 games, a checkpoint every 15 seconds, no
# evaluation, every shard kept (so that the tally can read them all).
"$SZ" train --print-config --size 4 | python3 -c '
import json, sys
c = json.load(sys.stdin)
c["net"].update(width=32, depth=2)
c["search"]["sims"] = 32
c.update(games_per_round=64, games_in_flight=4, keep_shards=0, min_replay=256, batch_size=64,
         replay_window=20000, checkpoint_minutes=0.25, snapshot_minutes=0, minutes=1000)
c["eval"]["minutes"] = 0
json.dump(c, sys.stdout, indent=1)' >"$OUT/config.json"

TRAINER=
start_trainer() {
  if [ -f "$OUT/trainer/checkpoint.msgpack" ]; then
    nice -n 19 "$SZ" train --resume "$OUT/trainer" --selfplay external --shared "$LOC" --every-round >>"$OUT/trainer.log" 2>&1 &
  else
    nice -n 19 "$SZ" train --config "$OUT/config.json" --run "$OUT/trainer" --selfplay external --shared "$LOC" --every-round >>"$OUT/trainer.log" 2>&1 &
  fi
  TRAINER=$!
  PIDS+=("$TRAINER")
}
PRODUCER=()
start_producer() {
  nice -n 19 "$SZ" selfplay --run "$LOC" --workers 1 --seed $((RANDOM)) >>"$OUT/selfplay-$1.log" 2>&1 &
  PRODUCER[$1]=$!
  PIDS+=("${PRODUCER[$1]}")
}

start_trainer
start_producer 0
start_producer 1
say "trainer pid $TRAINER, producers ${PRODUCER[*]}"

begin=$SECONDS
end=$((SECONDS + MINUTES * 60))
kills_trainer=0 kills_producer=0 outages=0
while [ $SECONDS -lt $end ]; do
  sleep $((5 + RANDOM % 20))
  if [ "$CALM" = 1 ]; then continue; fi
  if [ $outages -lt "$OUTAGES" ] && [ $SECONDS -ge $((begin + MINUTES * 60 * (outages + 1) / (OUTAGES + 1))) ]; then
    say "stopping the SeaweedFS server (pid $WEED_PID) for 15 s"
    stop_weed
    sleep 15
    start_weed
    outages=$((outages + 1))
    say "SeaweedFS started again: pid $WEED_PID"
    continue
  fi
  for w in "$TRAINER" "${PRODUCER[@]}"; do
    if ! kill -0 "$w" 2>/dev/null; then say "process $w is gone before its kill: see the logs"; fi
  done
  if [ $((RANDOM % 3)) -eq 0 ]; then
    say "SIGKILL trainer $TRAINER"
    kill -KILL "$TRAINER"; wait "$TRAINER" 2>/dev/null || true
    kills_trainer=$((kills_trainer + 1))
    sleep $((RANDOM % 4))
    start_trainer
    say "trainer resumed: pid $TRAINER"
  else
    i=$((RANDOM % 2))
    say "SIGKILL producer $i (pid ${PRODUCER[$i]})"
    kill -KILL "${PRODUCER[$i]}"; wait "${PRODUCER[$i]}" 2>/dev/null || true
    kills_producer=$((kills_producer + 1))
    sleep $((RANDOM % 4))
    start_producer "$i"
    say "producer $i started again: pid ${PRODUCER[$i]}"
  fi
done

# The end: producers stop (SIGTERM: the round in progress is dropped, as a
# kill would), then the trainer (SIGTERM: it saves its checkpoint). Not
# SIGINT: a background job of a script starts with SIGINT ignored, and one
# sent before the process has set its handler is lost (run 2 waited a
# minute for a producer started in the same second).
sleep 2
say "stopping: SIGTERM to the producers, then to the trainer"
for i in 0 1; do kill -TERM "${PRODUCER[$i]}"; wait "${PRODUCER[$i]}" 2>/dev/null || true; done
sleep 3
kill -TERM "$TRAINER"; wait "$TRAINER" 2>/dev/null || true

{
  echo "kills: trainer $kills_trainer, producers $kills_producer; server outages: $outages"
  for f in trainer.log selfplay-0.log selfplay-1.log; do
    echo "$f: $(grep -c 'waiting for the storage' "$OUT/$f" || true) waits began, $(grep -c 'answers again' "$OUT/$f" || true) ended, $(grep -c 'gave up' "$OUT/$f" || true) gave up; $(grep -c '^run \|^self-play ' "$OUT/$f" || true) starts"
  done
  echo "lines of the processes that are neither rounds nor waits (errors would be here):"
  grep -hv 'shards/.*games\|storage \|^run \|^self-play \|training from the shards\|round \|waiting for the learner' "$OUT"/trainer.log "$OUT"/selfplay-*.log | sort | uniq -c | sort -rn | head -20
} | tee "$OUT/summary.txt"
(cd experiments && nice -n 19 go run ./realstore/tally --filer "http://127.0.0.1:$P_FILER" --prefix /buckets/runs/realstore \
  --run "$OUT/trainer" "$OUT"/selfplay-*.log) | tee -a "$OUT/summary.txt"
say "done: $OUT"
