#!/usr/bin/env bash
# Counts the instructions a simulation of BenchmarkSearch takes, under
# valgrind's cachegrind: a measure the machine's load does not move (this
# machine gives no hardware counters to perf). Each build runs BENCH at
# 500 and 1,500 searches of 800 simulations; the difference, over 800,000
# simulations, leaves out the program's start and the first iterations.
# Usage: bash experiments/threads/instructions.sh BENCH A.test [B.test...]
#   e.g. bash experiments/threads/instructions.sh Search/slider5/threads=1 /tmp/mcts-587.test /tmp/mcts-new.test
set -euo pipefail
bench=$1; shift
count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$1" -test.run XXX -test.bench "$bench\$" -test.benchtime "$2x" 2>&1 |
    awk '/I +refs/ {gsub(",", "", $4); print $4}'
}
for x in "$@"; do
  lo=$(count "$x" 500) hi=$(count "$x" 1500)
  echo "$x $bench: $(( (hi - lo) / 800000 )) instructions a simulation"
done
