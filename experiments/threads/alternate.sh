#!/usr/bin/env bash
# Times two builds of the mcts package's test binary against each other:
# N alternations of BenchmarkSearch's BENCH (3,000 searches of 800
# simulations each run), then each build's median and best ns a
# simulation and the ratios of B to A (of the medians, of the best runs,
# and the median and range of the pairs run back to back).
# Usage: bash experiments/threads/alternate.sh N BENCH A.test B.test
#   e.g. go test -c -o /tmp/mcts-new.test ./mcts, and an old commit's the same way;
#        bash experiments/threads/alternate.sh 8 Search/slider5/threads=1 /tmp/mcts-587.test /tmp/mcts-new.test
set -euo pipefail
n=$1 bench=$2 a=$3 b=$4
for i in $(seq "$n"); do
  for x in "$a" "$b"; do
    "$x" -test.run XXX -test.bench "$bench" -test.benchtime 3000x | awk -v x="$x" '/ns\/sim/ {print x, $(NF-1)}'
  done
done | python3 -c '
import sys, statistics as st
d = {}
for line in sys.stdin:
    k, v = line.split()
    d.setdefault(k, []).append(float(v))
(a, va), (b, vb) = d.items()
for k, v in d.items():
    print("%s: median %.0f, best %.0f ns a simulation" % (k, st.median(v), min(v)))
pairs = sorted(y / x for x, y in zip(va, vb))
print("B/A: medians %.3f, best runs %.3f, pairs %.3f (%.3f-%.3f)" % (
    st.median(vb) / st.median(va), min(vb) / min(va), st.median(pairs), pairs[0], pairs[-1]))
'
