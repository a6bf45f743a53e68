#!/usr/bin/env bash
# Issue 35's fuzz campaign: the decoders of outside input the issue names
# (player file, shard, metrics, engine protocol, position notation), ten
# minutes each (FUZZTIME overrides), one after the other on all cores. A crash
# leaves its input in the package's testdata/fuzz/, which is committed as
# a regression seed. Usage (from anywhere): bash experiments/fuzz/run.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
t="${FUZZTIME:-10m}"
out="$here/results.txt"
: > "$out"
for target in \
    ./player:FuzzDecodePlayerFile \
    ./train/replay:FuzzDecodeShard \
    ./train/report:FuzzReadMetrics \
    ./engine:FuzzEngine \
    ./env/slider:FuzzParsePosition; do
  pkg="${target%%:*}" name="${target##*:}"
  start=$(date -u +%H:%M:%S)
  log=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$t" -fuzzminimizetime 10s 2>&1)
  rc=$?
  last=$(echo "$log" | grep -E 'fuzz: elapsed' | tail -1)
  echo "$start $pkg $name rc=$rc :: $last" | tee -a "$out"
  [ $rc -ne 0 ] && echo "$log" | tail -30 | tee -a "$out"
done
