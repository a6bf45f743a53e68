#!/usr/bin/env bash
# experiments/fleet: how many producers one learner can take (issue 66,
# item 3). A SeaweedFS server on loopback (experiments/weed.sh), a real
# learner (sliderzero train --selfplay external on the default
# configuration, evaluation off) at a bucket, and first one real
# selfplay process alone on the machine for a minute (the learner paused)
# to measure the positions a second a producer offers; then sim/ plays
# fleets of FLEET simulated producers (default 1 2 5 10 20 50 100 200),
# SECONDS_EACH seconds each, writing copies of that producer's shard at
# its measured rate. One JSON line a fleet in $OUT/fleet.jsonl, and the
# table in $OUT/table.md.
#
#   bash experiments/fleet/run.sh                 # OUT=/tmp/fleet-TIME
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/fleet-$(date +%s)}
FLEET=${FLEET:-"1 2 5 10 20 50 100 200"}
SECONDS_EACH=${SECONDS_EACH:-60}
mkdir -p "$OUT"
say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/events.log"; }
source experiments/weed.sh
weed_setup
go build -tags cloud -o "$OUT/sliderzero" ./cmd/sliderzero
(cd experiments && go build -o "$OUT/sim" ./fleet/sim)
SZ=$OUT/sliderzero
LOC="$LOC_BASE/fleet?$LOC_QUERY"

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
"$SZ" train --config "$OUT/config.json" --run "$OUT/learner" --selfplay external --shared "$LOC" --every-round >>"$OUT/learner.log" 2>&1 &
LEARNER=$!
PIDS+=("$LEARNER")

# One real producer on both cores, the learner paused once it has
# published its first weights and taken a shard.
"$SZ" selfplay --run "$LOC" --workers 2 --seed 1 >>"$OUT/producer.log" 2>&1 &
PRODUCER=$!
PIDS+=("$PRODUCER")
until grep -q 'positions with weights' "$OUT/producer.log"; do sleep 1; done
kill -STOP "$LEARNER"
say "learner paused; the producer plays alone for 60 s"
sleep 60
kill -TERM "$PRODUCER"; wait "$PRODUCER" 2>/dev/null || true
kill -CONT "$LEARNER"
# Its rounds after the first: positions over seconds (games over games/s).
read -r RATE KEY < <(python3 -c '
import re, sys
pos = secs = 0; key = None
for i, line in enumerate(re.findall(r"(shards/\S+): (\d+) games, (\d+) positions with weights \d+, ([\d.]+) games/s", open(sys.argv[1]).read())):
    k, g, p, gps = line
    key = key or k
    if i > 0:
        pos += int(p); secs += int(g) / float(gps)
print(round(pos / secs), key)' "$OUT/producer.log")
say "a producer on two cores offers $RATE positions a second; template $KEY"
curl -sf -o "$OUT/template.shard" "http://127.0.0.1:$P_FILER/buckets/runs/fleet/$KEY"

for n in $FLEET; do
  sleep 20 # the learner takes what is left of the last fleet
  say "fleet of $n producers for $SECONDS_EACH s"
  "$OUT/sim" --shared "$LOC" --run "$OUT/learner" --template "$OUT/template.shard" --producers "$n" \
    --rate "$RATE" --seconds "$SECONDS_EACH" --warmup 15 | tee -a "$OUT/fleet.jsonl"
done
kill -TERM "$LEARNER"; wait "$LEARNER" 2>/dev/null || true
python3 - "$OUT/fleet.jsonl" "$RATE" >"$OUT/table.md" <<'EOF'
import json, sys
rate = sys.argv[2]
print(f"A producer offers {rate} positions/s (measured, two cores).\n")
print("| producers | offered pos/s | taken pos/s | taken/offered | trained samples/s | rounds | mean round s | max round s | dropped | learner training share | write ms (mean/max) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    ratio = r["taken_positions_per_second"] / r["offered_positions_per_second"] if r["offered_positions_per_second"] else 0
    print(f'| {r["producers"]} | {r["offered_positions_per_second"]:.0f} | {r["taken_positions_per_second"]:.0f} | {ratio:.2f} | {r["trained_samples_per_second"]:.0f} | {r["rounds"]} | {r["round_mean_seconds"]:.1f} | {r["round_max_seconds"]:.1f} | {100*r["dropped_share"]:.1f}% | {100*r["learner_train_share"]:.0f}% | {r["write_mean_ms"]:.0f}/{r["write_max_ms"]:.0f} |')
EOF
cat "$OUT/table.md"
say "done: $OUT"
