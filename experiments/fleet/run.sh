#!/usr/bin/env bash
# experiments/fleet: how many producers one learner can take (issue 66,
# item 3). A SeaweedFS server on loopback (experiments/weed.sh); first one
# real selfplay process alone on the machine for a minute (its learner
# paused) to measure the positions a second a producer offers; then, for
# each fleet size in FLEET (default 1 2 5 10 20 50 100 200), a fresh real
# learner (sliderzero train --selfplay external on the default
# configuration, evaluation off) at a prefix of its own, and sim/ playing
# that many simulated producers for SECONDS_EACH seconds, writing copies
# of the real producer's shard at its measured rate. One JSON line a
# fleet in $OUT/fleet.jsonl, and the table in $OUT/table.md.
#
#   bash experiments/fleet/run.sh                 # OUT=/tmp/fleet-TIME
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/fleet-$(date +%s)}
FLEET=${FLEET:-"1 2 5 10 20 50 100 200"}
SECONDS_EACH=${SECONDS_EACH:-60}
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "OUT=$OUT holds files already: give an empty or new folder" >&2; exit 2
fi
mkdir -p "$OUT"
say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/events.log"; }
source experiments/weed.sh
weed_setup
go build -tags cloud -o "$OUT/sliderzero" ./cmd/sliderzero
(cd experiments && go build -tags cloud -o "$OUT/sim" ./fleet/sim)
SZ=$OUT/sliderzero

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -KILL "$p" 2>/dev/null || true; done
  [ -n "$WEED_PID" ] && stop_weed
}
trap cleanup EXIT
start_weed
weed_bucket

"$SZ" train --print-config | python3 -c '
import json, sys
c = json.load(sys.stdin)
c["eval"]["minutes"] = 0
c["minutes"] = 1000
json.dump(c, sys.stdout, indent=1)' >"$OUT/config.json"
start_learner() { # folder, storage
  "$SZ" train --config "$OUT/config.json" --run "$1" --selfplay external --shared "$2" --every-round >>"$1.log" 2>&1 &
  LEARNER=$!
  PIDS+=("$LEARNER")
}
stop_learner() { kill -CONT "$LEARNER" 2>/dev/null || true; kill -TERM "$LEARNER"; wait "$LEARNER" 2>/dev/null || true; }

# One real producer on both cores, its learner paused once it has taken
# a shard: the rate a simulated producer offers, and the template.
PROBE="$LOC_BASE/fleet-probe?$LOC_QUERY"
start_learner "$OUT/probe" "$PROBE"
"$SZ" selfplay --run "$PROBE" --workers 2 --seed 1 >>"$OUT/producer.log" 2>&1 &
PRODUCER=$!
PIDS+=("$PRODUCER")
for i in $(seq 300); do
  grep -q 'positions with weights' "$OUT/producer.log" && break
  if [ "$i" = 300 ] || ! kill -0 "$PRODUCER" 2>/dev/null; then
    say "the producer wrote no shard in 300 s (or stopped): see $OUT/producer.log"; exit 1
  fi
  sleep 1
done
kill -STOP "$LEARNER"
say "learner paused; the producer plays alone for 60 s"
sleep 60
kill -TERM "$PRODUCER"; wait "$PRODUCER" 2>/dev/null || true
stop_learner
# Its rounds after the first: positions over seconds (games over games/s).
read -r RATE KEY < <(python3 -c '
import re, sys
pos = secs = 0; key = None
for i, line in enumerate(re.findall(r"(shards/\S+): (\d+) games, (\d+) positions with weights \d+, ([\d.]+) games/s", open(sys.argv[1]).read())):
    k, g, p, gps = line
    key = k  # the last: a network that has learned a little, still kept
    if i > 0:
        pos += int(p); secs += int(g) / float(gps)
print(round(pos / secs), key)' "$OUT/producer.log")
say "a producer on two cores offers $RATE positions a second; template $KEY"
curl -sf -o "$OUT/template.shard" "http://127.0.0.1:$P_FILER/buckets/runs/fleet-probe/$KEY" ||
  { say "could not read the template $KEY through the filer"; exit 1; }

# Each fleet against a fresh learner at a prefix of its own.
for n in $FLEET; do
  loc="$LOC_BASE/fleet-$n?$LOC_QUERY"
  start_learner "$OUT/learner-$n" "$loc"
  say "fleet of $n producers for $SECONDS_EACH s"
  "$OUT/sim" --shared "$loc" --template "$OUT/template.shard" --producers "$n" --rate "$RATE" --seconds "$SECONDS_EACH" >"$OUT/offered-$n.json"
  stop_learner
  "$OUT/sim" --checkpoint "$OUT/learner-$n" >"$OUT/learned-$n.json"
  python3 -c 'import json, sys; print(json.dumps({**json.load(open(sys.argv[1])), **json.load(open(sys.argv[2]))}))' \
    "$OUT/offered-$n.json" "$OUT/learned-$n.json" | tee -a "$OUT/fleet.jsonl"
done
python3 experiments/fleet/table.py "$OUT/fleet.jsonl" "$RATE" >"$OUT/table.md"
cat "$OUT/table.md"
say "done: $OUT"
