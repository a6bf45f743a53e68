#!/usr/bin/env bash
# Self-play in separate processes against one process, on this machine:
# the built-in configuration with evaluation off, 1.5 training minutes
# each; prints games, positions, steps and training seconds, and the wall
# time. Run from anywhere: bash experiments/distributed/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o /tmp/sliderzero-dist ./cmd/sliderzero
sz=/tmp/sliderzero-dist
tmp=$(mktemp -d)
$sz train --print-config 2>/dev/null | python3 -c "
import json,sys; c=json.load(sys.stdin); c['eval']['minutes']=0; c['eval']['accuracy_table']=''; c['minutes']=1.5
json.dump(c,open('$tmp/cfg.json','w'),indent=1)"
games() { python3 -c "
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
print(rows[-1]['games'], 'games,', rows[-1]['positions'], 'positions,', rows[-1]['steps'], 'steps')" "$1/metrics.jsonl"; }
t0=$(date +%s.%N); $sz train --config "$tmp/cfg.json" --run "$tmp/one" 2>/dev/null; t1=$(date +%s.%N)
echo "one process: $(games "$tmp/one"), wall $(echo "$t1-$t0" | bc) s"
for n in 1 2; do
  d=$tmp/ext$n
  t0=$(date +%s.%N)
  $sz train --config "$tmp/cfg.json" --run "$d" --selfplay external 2>/dev/null &
  trainer=$!
  sleep 2
  pids=()
  for i in $(seq 1 $n); do $sz selfplay --run "$d" --workers $((2 / n)) --quiet --seed "$i" 2>/dev/null & pids+=($!); done
  wait $trainer; t1=$(date +%s.%N)
  kill "${pids[@]}"; wait 2>/dev/null || true
  echo "trainer and $n selfplay process(es) of $((2 / n)) workers: $(games "$d"), wall $(echo "$t1-$t0" | bc) s"
done
rm -rf "$tmp"
