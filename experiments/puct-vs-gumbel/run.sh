#!/usr/bin/env bash
# PUCT against Gumbel search in self-play: which learns faster per minute of
# this machine? One run per configuration (6 training minutes each, one
# after the other, both cores), each evaluated every training minute against
# the same ladder with the same PUCT search at 100 simulations; then a chart
# of Elo against training time for all three.
# Run from the repository root: bash experiments/puct-vs-gumbel/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-exp ./cmd/sliderzero
runs=()
for cfg in puct64 gumbel16 gumbel64; do
  run="checkpoints/exp-$cfg"
  rm -rf "$run"
  /tmp/sliderzero-exp train --config "$here/$cfg.json" --run "$run" --quiet
  /tmp/sliderzero-exp report --run "$run" > /dev/null
  runs+=("$run")
done
/tmp/sliderzero-exp report --compare "$(IFS=,; echo "${runs[*]}")" --out "$here/elo_time.png"
for run in "${runs[@]}"; do
  echo "== $run"
  grep '"elo"' "$run/metrics.jsonl" | python3 -c '
import json, sys
for l in sys.stdin:
    m = json.loads(l)
    print("%5.1f min %6d games  Elo %+5.0f [%+5.0f, %+5.0f]  %s" % (m["elapsed_seconds"]/60, m["games"], m["elo"], m["elo_lo"], m["elo_hi"],
        "  ".join("%s %.0f%%" % (k, 100*v) for k, v in sorted(m["eval_scores"].items()))))'
done | tee "$here/results.txt"
# The ladder saturates on 5x5 within minutes, so the final networks also
# meet head to head (same evaluation search for all: PUCT, 100 simulations).
/tmp/sliderzero-exp tournament --size 5 --blocked random --first random --games 100 \
  --players "net:checkpoint=checkpoints/exp-puct64/checkpoint.msgpack;net:checkpoint=checkpoints/exp-gumbel16/checkpoint.msgpack;net:checkpoint=checkpoints/exp-gumbel64/checkpoint.msgpack;alphabeta" \
  2>/dev/null | tee "$here/tournament.txt"
