#!/usr/bin/env bash
# Issue 64's Connect Four figure against perfect play: 200 games against
# the budgeted perfect player (solver:nodes=5000000) from random starts 4
# to 8 plies in (40 games at each depth, colours swapped in pairs, seeds 4
# to 8), every start then solved exactly (weakly) so that each game is
# judged by what its start was worth to the network. PLAYER (default the
# shipped connect4.player) is the player file; OUT names the folder under
# experiments/strength3 (default c4perfect). Each step skips what a file
# already holds.
#   SZ=/tmp/sz-new PLAYER=checkpoints/connect4.player bash experiments/strength3/c4perfect.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
sz=${SZ:-/tmp/sliderzero-strength3}
[ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
player=${PLAYER:-checkpoints/connect4.player}
out="$here/${OUT:-c4perfect}"
mkdir -p "$out"
for plies in 4 5 6 7 8; do
  rec="$out/random$plies.jsonl"
  [ -f "$rec" ] && continue
  $sz match --game connect4 --a "player:$player" --b solver:nodes=5000000 \
    --random-plies "$plies" --games 40 --parallel 2 --seed "$plies" --records "$rec.tmp" --force > /dev/null
  mv "$rec.tmp" "$rec"
done
if [ ! -f "$out/starts-solved.txt" ]; then
  python3 -c 'import json,sys
seen=set()
for f in sys.argv[1:]:
    for l in open(f):
        s=json.loads(l)["start"]
        if s not in seen: seen.add(s); print(s)' "$out"/random?.jsonl > "$out/starts.txt"
  $sz solve --game connect4 --weak --time 60s --in "$out/starts.txt" --out "$out/starts-solved.txt.tmp"
  mv "$out/starts-solved.txt.tmp" "$out/starts-solved.txt"
fi
python3 "$here/c4perfect_tally.py" "$out/starts-solved.txt" "$out"/random?.jsonl | tee "$out/tally.txt"
