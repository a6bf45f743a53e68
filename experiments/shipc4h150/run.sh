#!/usr/bin/env bash
# experiments/shipc4h90's Connect Four run trained 60 minutes more (150 in
# all) by resuming a copy of its folder, then measured as shipc4h90 was:
# both critical sets at the default (12,800 simulations) and at 200, the
# 80 games against the budgeted perfect player from the fixed openings,
# and the 40 games from 6 random plies (seed 2: the same 20 starts, whose
# exact values are in experiments/shipc4h90/random6-starts-solved.txt).
# Needs checkpoints/shipc4h90 (bash experiments/shipc4h90/run.sh).
# Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-shipc4h150 ./cmd/sliderzero
sz=/tmp/sliderzero-shipc4h150
run=checkpoints/shipc4h150
new=checkpoints/shipc4h150.player
source "$here/../lib.sh"
extend_and_report shipc4h90 60
[ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 12800
step accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
  --misses "$here/misses.tsv" --player "player:$new;player:$new,sims=200"
step perfect.txt $sz match --game connect4 --a "player:$new" --b solver:nodes=5000000 \
  --openings experiments/connect4/perfect-openings.txt --games 80 --parallel 2 --seed 1 --records "$here/perfect-match.jsonl"
python3 experiments/shipc4/perfect_tally.py "$here/perfect-match.jsonl"
step random6.txt $sz match --game connect4 --a "player:$new" --b solver:nodes=5000000 \
  --random-plies 6 --games 40 --parallel 2 --seed 2 --records "$here/random6-match.jsonl"
python3 "$here/start_tally.py" "$here/random6-match.jsonl" experiments/shipc4h90/random6-starts-solved.txt
# A wider check: 100 games from 6 random plies (seed 3: 50 starts, colours
# swapped in pairs), the new player and the 90-minute one on the same
# starts, each start solved exactly.
old=checkpoints/shipc4h90.player
[ -f "$old" ] || $sz export --checkpoint checkpoints/shipc4h90/checkpoint.msgpack --out "$old" --sims 12800
for p in new old; do
  spec=${!p}
  step wide-$p.txt $sz match --game connect4 --a "player:$spec" --b solver:nodes=5000000 \
    --random-plies 6 --games 100 --parallel 2 --seed 3 --records "$here/wide-$p.jsonl"
done
if [ ! -f "$here/wide-starts-solved.txt" ]; then
  python3 -c 'import json, sys
seen = []
for line in open(sys.argv[1]):
    s = json.loads(line)["start"]
    if s not in seen:
        seen.append(s)
print("\n".join(seen))' "$here/wide-new.jsonl" > "$here/wide-starts.txt"
  $sz solve --game connect4 --weak --time 60s --in "$here/wide-starts.txt" --out "$here/wide-starts-solved.txt"
fi
for p in new old; do
  echo "$p:"; python3 "$here/start_tally.py" "$here/wide-$p.jsonl" "$here/wide-starts-solved.txt"
done | tee "$here/wide-tally.txt"
