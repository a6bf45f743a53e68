#!/usr/bin/env bash
# The figures of experiments/match-tools: repeated games without openings,
# the same match with openings, an SPRT's LLR trace, and a tournament with
# an external engine. Needs the ablation runs' checkpoints
# (bash experiments/ablation5/run.sh a-baseline b-targets ...) for the two
# network players.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-mt ./cmd/sliderzero
sz=/tmp/sliderzero-mt
A="net:checkpoint=checkpoints/ablation5-m-valueweight/checkpoint.msgpack,sims=100,name=m-valueweight"
B="net:checkpoint=checkpoints/ablation5-e-bignet/checkpoint.msgpack,sims=100,name=e-bignet"
$sz match --a "$A" --b "$B" --games 40 --size 5 --blocked none > "$here/before.txt" 2>&1
$sz openings --size 5 --count 20 --plies 6 --judge "player:checkpoints/slider-5x5.player,sims=200" --out "$here/openings-5x5-open.txt"
$sz match --a "$A" --b "$B" --games 40 --size 5 --openings "$here/openings-5x5-open.txt" > "$here/after.txt" 2>&1
$sz openings --size 5 --blocked random --first random --count 40 --plies 4 --judge mcts:sims=1000 --out "$here/openings-5x5-random.txt"
$sz match --a alphabeta:depth=6 --b alphabeta:depth=4 --games 400 --size 5 --blocked random \
  --openings "$here/openings-5x5-random.txt" --openings-order random --sprt elo0=0,elo1=30 > "$here/sprt2.txt" 2>&1
$sz tournament --players "random;greedy;alphabeta:depth=4;engine:cmd=$sz engine --player alphabeta:depth=4,name=external-ab4;player:checkpoints/slider-5x5.player,sims=100,name=net-interim" \
  --games 20 --size 5 --blocked random --openings "$here/openings-5x5-random.txt" > "$here/tournament.txt" 2>&1
