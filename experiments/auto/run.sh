#!/usr/bin/env bash
# Issue 63: each game's default run, its settings chosen from the game
# (G-auto.json: the built-in configuration for --game G, leaving
# search.sims, search.random_plies, search.random_starts and eval.ladder
# to the game), beside the project's best hand-tuned configuration for it
# (G-hand.json: the same with the values measured by hand before: Slider
# 80 random plies and half the games from random starts, Connect Four 10
# plies, Cats & Dogs 200 simulations, RLGame the built-in 64 and none).
# Both arms train ten minutes on one self-play worker from seed 1, side by
# side, so they share the machine's two cores and its load; evaluations
# every 5 minutes measure Slider and Connect Four on their critical sets
# (the run's own accuracy); Cats & Dogs and RLGame are then exported and
# play alphabeta:time=0.5 at an equal 0.5 s a move, 20 games, colours
# swapped in pairs. Each step skips what its output already holds.
# Usage: bash experiments/auto/run.sh [GAME...]   (default: all four)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-auto ./cmd/sliderzero
sz=/tmp/sliderzero-auto
games=${GAMES:-20}
source "$here/../lib.sh"
[ -f checkpoints/tables/slider-5x5.table ] || $sz solve --size 5 --out checkpoints/tables/slider-5x5.table
for game in "${@:-catsdogs rlgame slider connect4}"; do
  for g in $game; do
    train_side_by_side auto "$g-auto" "$g-hand"
    for arm in "$g-auto" "$g-hand"; do
      run=checkpoints/auto-$arm
      grep -h '"accuracy"' "$run/metrics.jsonl" > "$here/$arm.accuracy.jsonl" || true
      cp "$run/config.json" "$here/$arm.config.json"
      case $g in
      catsdogs|rlgame)
        [ -f "$run.player" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$run.player"
        out="$here/match-$arm-$games"
        if [ ! -f "$out.txt" ]; then
          $sz match --game "$g" --a "player:$run.player,time=0.5,threads=1" --b "alphabeta:time=0.5" \
            --games "$games" --parallel 2 --seed 1 --records "$out.jsonl" 2>/dev/null > "$out.txt.tmp"
          mv "$out.txt.tmp" "$out.txt"
        fi
        ;;
      esac
    done
  done
done
