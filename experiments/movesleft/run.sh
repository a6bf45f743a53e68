#!/usr/bin/env bash
# The plies head in Cats & Dogs (issue 23, item 5): 20 training minutes
# with net.moves_left, against the 20-minute snapshot of catsdogs60 (the
# same configuration without the head), each at an equal 0.5 s a move
# against alpha-beta, 20 games, colours swapped in pairs; and the same
# network with the search's moves-left utility off (movesleft=false), so
# that the head's training and its use in search are told apart. Each
# step skips what a file already holds. Run nothing else beside it.
# Run from the repository: bash experiments/movesleft/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-ml ./cmd/sliderzero
sz=/tmp/sliderzero-ml
run=checkpoints/movesleft
source "$here/../lib.sh"
train_and_report
ml=$(ls "$run"/snapshots/weights-*.msgpack | tail -1)
base=checkpoints/catsdogs60/snapshots/weights-0108293.msgpack # 20 minutes
vs() { # vs NAME SPEC
  step "$1.txt" $sz match --game catsdogs --a "$2" --b alphabeta --movetime 0.5 --games 20 \
    --parallel 2 --records "$here/$1.jsonl"
}
vs movesleft "net:checkpoint=$ml"
vs baseline "net:checkpoint=$base"
vs utility-off "net:checkpoint=$ml,movesleft=false"
