#!/usr/bin/env bash
# A new game's shipped player (issue 63), made the way a user would make
# one: the default run of the game (sliderzero train --game GAME: every
# training setting chosen from the game) for MINUTES on both cores,
# exported with a default search of SIMS simulations, then measured on the
# game's two critical position sets (the ones the run's accuracy used:
# real games between the baselines, and random positions) at that budget
# and at 100 simulations, and in 100 games against the game's perfect
# player from starts PLIES random plies in, colours swapped in pairs, each
# start then solved so that games are tallied by what the start is worth
# to the network. Everything lands in experiments/shipgame/GAME/.
# Usage: bash experiments/shipgame/run.sh GAME MINUTES SIMS PLIES
set -euo pipefail
game=$1 minutes=$2 sims=$3 plies=$4
here="$(cd "$(dirname "$0")" && pwd)/$game"
mkdir -p "$here"
cd "$here/../../.."
sz=${SZ:-/tmp/sliderzero-shipgame}   # SZ: a sliderzero already built
[ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
run=checkpoints/ship-$game
player=checkpoints/ship-$game.player
source experiments/lib.sh
if [ ! -f "$here/report.md" ]; then
  if [ -f "$run/checkpoint.msgpack" ]; then
    $sz train --resume "$run" --quiet || echo "not resumed: reporting the run as it is" >&2
  else
    $sz train --game "$game" --minutes "$minutes" --run "$run" --quiet
  fi
  report_here
  cp "$run/config.json" "$here/config.json"
fi
[ -f "$player" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$player" --sims "$sims"
# The sets the run's accuracy was measured on (named after the game and
# its settings: kalah-pits=4-seeds=3-real-games.set).
real=$(ls checkpoints/tables/$game*-real-games.set | head -1)
random=$(ls checkpoints/tables/$game*-random.set | head -1)
sets="$real;$random"
step accuracy.txt $sz accuracy --set "$sets" --parallel 2 --misses "$here/misses.tsv" --player "player:$player;player:$player,sims=100"
step perfect.txt $sz match --game "$game" --a "player:$player" --b solver --games 100 --random-plies "$plies" \
  --parallel 2 --seed 1 --records "$here/perfect-match.jsonl"
if [ ! -f "$here/starts-solved.txt" ]; then
  python3 -c 'import json,sys; [print(json.loads(l)["start"]) for l in open(sys.argv[1])]' "$here/perfect-match.jsonl" > "$here/starts.txt"
  $sz solve --game "$game" --weak --in "$here/starts.txt" --out "$here/starts-solved.txt"
fi
go build -C experiments/shipgame/tally -o /tmp/shipgame-tally && /tmp/shipgame-tally "$here/perfect-match.jsonl" "$here/starts-solved.txt" | tee "$here/perfect-tally.txt"
