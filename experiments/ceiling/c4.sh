#!/usr/bin/env bash
# The supervised ceiling on Connect Four (see README.md, "Connect Four"):
# positions labelled by the exact solver, fits of the network by steps
# (so that their figures do not depend on what else runs), and the
# shipped self-play player measured the same way.
#
#   bash experiments/ceiling/c4.sh                 # data, then every fit, then the shipped player
#   bash experiments/ceiling/c4.sh mlp256x3        # some steps, by name
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-checkpoints/ceiling-c4}
DATA=${DATA:-$OUT/c4-train.txt}
DATA_MINUTES=${DATA_MINUTES:-20}
SIMS=${SIMS:-100,200,800,1600}
SETS="checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set"
mkdir -p "$OUT"
# experiments/ is its own module: built there, run from here.
go build -C experiments -o "$(cd "$OUT" && pwd)/" ./ceiling/c4data ./ceiling/c4fit

fit() { # name, then c4fit flags
	local name=$1
	shift
	"$OUT/c4fit" -data "$DATA" -sets "$SETS" -sims "$SIMS" -name "$name" -out "$OUT" "$@" 2>&1 | tee "$OUT/$name.log"
}

all=(data mlp256x3 conv16x2 shipped)
for what in "${@:-${all[@]}}"; do
	case $what in
	data) # two workers, each with its own transposition table
		[ -f "$DATA" ] || "$OUT/c4data" -count 40000 -minutes "$DATA_MINUTES" -workers 2 -seed 7 -out "$DATA" \
			-exclude "${SETS//;/,}" 2>&1 | tee "$OUT/data.log" ;;
	mlp256x3) fit c4-mlp-256x3 -net mlp:256x3 -steps 12000 ;;
	conv16x2) fit c4-conv-16x2 -net conv:16x2 -steps 3000 ;;
	shipped) "$OUT/c4fit" -measure checkpoints/connect4.player -value-threshold 0.22 -sets "$SETS" -sims "$SIMS" \
		-name shipped-connect4 -out "$OUT" 2>&1 | tee "$OUT/shipped.log" ;;
	*) echo "unknown step $what" >&2; exit 2 ;;
	esac
done
