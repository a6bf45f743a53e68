#!/usr/bin/env bash
# The shipped players' default budgets, set by one rule (issue 33): the
# largest budget of the form old default x 2^k whose search takes under
# 0.1 s a move on one core (the time at which the project compares
# players with alpha-beta). First the simulations a second (bench
# --search), then each player measured at its old and new budgets: 5x5
# and Connect Four on their critical sets (Connect Four also in 80 games
# against the perfect player), 5x5 against perfect play from every
# layout's start (experiments/perfect5), the others against
# alphabeta:time=0.1. Last, the time a move of every match (times.py).
# The budgets' strength figures do not depend on the load (the speeds
# and the alpha-beta matches do). Each step skips what a file already
# holds. The probe-*.jsonl records are the two-game matches that chose
# the 6x6, 7x7, Cats & Dogs and RLGame budgets (see the README).
# Usage: bash experiments/budgets/run.sh
#   after rewriting each shipped file, e.g.
#   sliderzero export --checkpoint checkpoints/slider-5x5.player --sims 51200 --out checkpoints/slider-5x5.player
#   (connect4 12800, slider-6x6 51200, slider-7x7 25600, catsdogs 25600, rlgame 12800)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-budgets ./cmd/sliderzero
sz=/tmp/sliderzero-budgets
source "$here/../lib.sh"
table=checkpoints/tables/slider-5x5.table
[ -f $table ] || $sz solve --size 5 --out $table
s5=checkpoints/slider-5x5.player
c4=checkpoints/connect4.player
step speed.txt bash -c "$sz bench --search --player $s5 --sims 51200; $sz bench --search --game connect4 --player $c4 --sims 12800"
# At the old default the games not converted are kept too.
step slider-3200.txt $sz accuracy --table $table --parallel 2 --convert 100 --player "player:$s5,threads=1,sims=3200" \
  --unconverted "$here/slider-unconverted-3200.jsonl"
for sims in 51200 204800; do
  step slider-$sims.txt $sz accuracy --table $table --parallel 2 --convert 100 --player "player:$s5,threads=1,sims=$sims"
done
step c4-accuracy-1600.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" \
  --parallel 2 --player "player:$c4,sims=1600"
step c4-accuracy.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" \
  --parallel 2 --player "player:$c4"
step c4-perfect.txt $sz match --game connect4 --a "player:$c4" --b solver:nodes=5000000 \
  --openings experiments/connect4/perfect-openings.txt --games 80 --parallel 2 --seed 1 --records "$here/c4-perfect-match.jsonl"
python3 experiments/shipc4/perfect_tally.py "$here/c4-perfect-match.jsonl" > "$here/c4-perfect-tally.txt"
# The open board's games of experiments/perfect5 at 51,200 simulations,
# played again with the player's new default (one thread, as there).
if [ ! -f "$here/slider-open-board.txt" ]; then
  rm -f "$here/slider-open-board.jsonl"
  for first in H V; do
    $sz match --a "player:$s5,threads=1" --b "solver:table=$table" --size 5 --blocked none --first $first \
      --games 2 --seed 1 --parallel 2 --records "$here/slider-open-board.jsonl" --append > /dev/null 2>&1
  done
  python3 - "$here/slider-open-board.jsonl" experiments/perfect5/sims51200-exact.jsonl > "$here/slider-open-board.txt" <<'EOF'
import json, sys
new = [json.loads(l) for l in open(sys.argv[1])]
old = [g for g in map(json.loads, open(sys.argv[2])) if g["game"].get("blocked") == "none"]
same = sum(a["moves"] == b["moves"] for a, b in zip(new, old))
print("open board: %d games with the new default, %d of them move for move as perfect5's at sims=51200" % (len(new), same))
for g in new:
    print(g["game"].get("first"), g["players"][0], "result", g.get("result", g.get("winner")), len(g["moves"]), "plies")
EOF
fi
cat "$here/slider-open-board.txt"
# The issue's figure itself, with the rewritten file: all 64 games from the
# 16 layouts' starts (experiments/perfect5, which solves the layouts'
# tables first), on one thread and on two (the default of play, engine and
# the web app; two threads make the games differ from run to run).
KINDS=exact bash experiments/perfect5/run.sh "player:$s5,threads=1" default51200
KINDS=exact bash experiments/perfect5/run.sh "player:$s5,threads=2" threads2
# 6x6 and 7x7 by the same rule (51,200 and 25,600 simulations; 800 x 64 on
# 7x7 took 0.102 s a move in real games): each player at its old and its
# new default against alphabeta:time=0.1, 50 games on the referee's
# layouts, colours swapped within pairs (the time a move of each is in
# the records).
for size in 6 7; do
  old=3200 new=51200
  if [ $size = 7 ]; then old=800 new=25600; fi
  for sims in $old $new; do
    step slider${size}-$sims.txt $sz match --a "player:checkpoints/slider-${size}x${size}.player,threads=1,sims=$sims" --b alphabeta:time=0.1 \
      --games 50 --size $size --blocked random --first random --parallel 2 --seed 1 --records "$here/slider${size}-$sims.jsonl"
  done
done
# Cats & Dogs and RLGame by the same rule (25,600 and 12,800 simulations;
# 200 x 128 took 0.103 s a move in RLGame's real games): each player at
# its old default (200) and its new one against alphabeta:time=0.1, 20
# games, colours swapped within pairs.
for game in catsdogs rlgame; do
  new=25600
  if [ $game = rlgame ]; then new=12800; fi
  for sims in 200 $new; do
    step $game-$sims.txt $sz match --game $game --a "player:checkpoints/$game.player,threads=1,sims=$sims" --b alphabeta:time=0.1 \
      --games 20 --parallel 2 --seed 1 --records "$here/$game-$sims.jsonl"
  done
done
python3 "$here/times.py" "$here"/*.jsonl > "$here/times.txt"
cat "$here/times.txt"
