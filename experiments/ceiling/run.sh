#!/usr/bin/env bash
# The supervised ceiling diagnostic (see README.md): fits each network on
# the solver's exact targets, one core and one process a run, measures
# the shipped self-play player the same way, and prints the tables.
#
#   bash experiments/ceiling/run.sh              # the default runs, in turn
#   bash experiments/ceiling/run.sh mlp128x3     # some runs, by name
#   bash experiments/ceiling/run.sh layouts mlp128x3-referee
#                                                # the layout-mix control
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOMAXPROCS=1
OUT=${OUT:-checkpoints/ceiling}
MINUTES=${MINUTES:-20}
SIMS=${SIMS:-100,800,3200}
TABLE=checkpoints/tables/slider-5x5.table
mkdir -p "$OUT"
[ -f "$TABLE" ] || go run ./cmd/sliderzero solve --size 5 --parallel 1 --out "$TABLE"
# experiments/ is its own module: built there, run from here.
go build -C experiments -p 1 -o "$(cd "$OUT" && pwd)/ceiling" ./ceiling

run() { # name, then train flags
	local name=$1
	shift
	"$OUT/ceiling" train --name "$name" --minutes "$MINUTES" --sims "$SIMS" --out "$OUT" "$@" 2>&1 | tee "$OUT/$name.log"
}

all=(mlp128x3 mlp128x2 resmlp128x2 mlp128x3-disc shipped)
for what in "${@:-${all[@]}}"; do
	case $what in
	mlp128x2) run mlp-128x2 --net mlp:128x2 ;;
	mlp128x3) run mlp-128x3 --net mlp:128x3 ;;
	resmlp128x2) run resmlp-128x2 --net resmlp:128x2 ;;
	mlp128x3-disc) run mlp-128x3-disc-best --net mlp:128x3 --value discounted --policy best ;;
	mlp128x3-referee) run mlp-128x3-referee --net mlp:128x3 --layouts referee ;;
	mlp512x3) run mlp-512x3 --net mlp:512x3 ;;
	conv32x2) run conv-32x2 --net conv:32x2 ;;
	shipped) "$OUT/ceiling" measure --player checkpoints/slider-5x5.player --name shipped-slider-5x5 --sims "$SIMS" --out "$OUT" 2>&1 | tee "$OUT/shipped.log" ;;
	layouts) # the tables of the 15 blocked layouts self-play also plays on (about a minute each on one core)
		"$OUT/ceiling" layouts --layout-tables "$OUT/tables" | while read -r cells file; do
			[ -f "$file" ] || go run ./cmd/sliderzero solve --size 5 --blocked "$cells" --positions 0 --out "$file"
		done ;;
	*) echo "unknown run $what" >&2; exit 2 ;;
	esac
done
"$OUT/ceiling" report --out "$OUT" | tee "$OUT/report.md"
