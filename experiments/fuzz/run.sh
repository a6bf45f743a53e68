#!/usr/bin/env bash
# Fuzz campaigns of the decoders of outside input: issue 35's (player
# file, shard, metrics, engine protocol, position notation) and issue 65's
# fuzzers of counted fields (the msgpack reader, player files and shards
# with mutated counts, metrics, position sets, Pons' test sets), ten
# minutes each (FUZZTIME overrides), one after the other. A crash leaves
# its input in the package's testdata/fuzz/, which is committed as a
# regression seed. Each run's line is added to results.txt.
# Usage (from anywhere):
#   bash experiments/fuzz/run.sh                     # every target
#   TARGETS=issue65 bash experiments/fuzz/run.sh     # issue 65's
#   TARGETS="FuzzShardCounts ./store:FuzzUnmarshal" bash experiments/fuzz/run.sh
#   PARALLEL=1 nice -n 19 bash experiments/fuzz/run.sh  # one fuzz worker, leaving the other cores
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
t="${FUZZTIME:-10m}"
out="$here/results.txt"

issue35="./player:FuzzDecodePlayerFile ./train/replay:FuzzDecodeShard ./train/report:FuzzReadMetrics ./engine:FuzzEngine ./env/slider:FuzzParsePosition"
issue65="./store:FuzzUnmarshal ./player:FuzzDecodePlayerFile ./train/replay:FuzzDecodeShard ./train/replay:FuzzShardCounts ./train/report:FuzzReadMetrics ./accuracy:FuzzReadSet ./accuracy/pons:FuzzParseSet"

# TARGETS: issue35, issue65, targets (PKG:NAME) or their names alone;
# default every target once.
chosen=()
for want in ${TARGETS:-issue35 issue65}; do
  case $want in
  issue35) set -- $issue35 ;;
  issue65) set -- $issue65 ;;
  *:*) set -- "$want" ;;
  *) set -- $(printf '%s\n' $issue35 $issue65 | grep ":$want\$" | head -1) ;;
  esac
  [ $# -eq 0 ] && { echo "fuzz: no target named $want" >&2; exit 2; }
  for target in "$@"; do
    [[ " ${chosen[*]} " == *" $target "* ]] || chosen+=("$target")
  done
done

par=()
[ -n "${PARALLEL:-}" ] && par=(-parallel "$PARALLEL")
echo "# $(date -u +%Y-%m-%d), FUZZTIME=$t${PARALLEL:+ PARALLEL=$PARALLEL}: ${chosen[*]}" >> "$out"
for target in "${chosen[@]}"; do
  pkg="${target%%:*}" name="${target##*:}"
  start=$(date -u +%H:%M:%S)
  log=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$t" -fuzzminimizetime 10s "${par[@]}" 2>&1)
  rc=$?
  last=$(echo "$log" | grep -E 'fuzz: elapsed' | tail -1)
  echo "$start $pkg $name rc=$rc :: $last" | tee -a "$out"
  [ $rc -ne 0 ] && echo "$log" | tail -30 | tee -a "$out"
done
