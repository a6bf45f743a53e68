#!/usr/bin/env bash
# Regenerates the pictures of this folder from a real training run and the
# shipped players, in headless Chromium (experiments/screenshots):
#
#   bash docs/screenshots/make.sh [RUN]
#
# RUN is a training run's folder under the repository (default
# checkpoints/auto-slider-auto, ten minutes of the default Slider 5x5 run).
# Needs Debian's chromium, the shipped players checkpoints/slider-5x5.player
# and checkpoints/connect4.player, and for Slider's perfect-play verdict
# checkpoints/tables/slider-5x5.table (sliderzero solve --size 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
run=${1:-checkpoints/auto-slider-auto}

if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
  echo "make.sh: no Chromium: install Debian's (apt-get install chromium)" >&2
  exit 1
fi
if [ ! -f "$run/metrics.jsonl" ]; then
  echo "make.sh: $run is not a training run (no metrics.jsonl)." >&2
  echo "  Make one: go run ./cmd/sliderzero train  (ten minutes, into checkpoints/slider5-DATE)," >&2
  echo "  then: bash docs/screenshots/make.sh checkpoints/slider5-DATE" >&2
  exit 1
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -C experiments -o "$bin/screenshots" ./screenshots
"$bin/screenshots" --run "$run" --out docs/screenshots
