#!/usr/bin/env bash
# Issue 64's lever "the search's own settings at 600 simulations": the
# shipped Connect Four player at AlphaZero.jl's budget with other PUCT
# constants, first-play urgencies and Gumbel root search, chosen on the
# project's two critical sets (accuracy-600.txt, each setting's row
# paired with the player's own; misses-600.tsv), then the chosen settings checked on Pons' medium and hard
# sets beside the player's own (pons-600.txt, paired by bench --pons).
# Every budget is in simulations: the figures do not depend on the load.
# CANDIDATES (specs' extra settings, separated by ;) are the settings
# taken to Pons' sets. Each step skips what a file already holds.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
sz=${SZ:-/tmp/sliderzero-c4search600}
[ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
p=player:checkpoints/connect4.player,sims=600
source "$here/../lib.sh"
sets="checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set"
players="$p;$p,c_puct=1;$p,c_puct=0.7;$p,c_puct=2.5;$p,fpu_reduction=0.05;$p,fpu_reduction=0.5;$p,gumbel=true"
if [ ! -f "$here/accuracy-600.txt" ]; then
  $sz accuracy --set "$sets" --parallel 2 --misses "$here/misses-600.tsv.tmp" --player "$players" \
    2>/dev/null > "$here/accuracy-600.txt.tmp"
  mv "$here/misses-600.tsv.tmp" "$here/misses-600.tsv"
  mv "$here/accuracy-600.txt.tmp" "$here/accuracy-600.txt"
fi
[ -n "${CANDIDATES:-}" ] || exit 0
specs="$p"
IFS=';' read -ra cs <<< "$CANDIDATES"
for c in "${cs[@]}"; do specs="$specs;$p,$c"; done
pons=experiments/connect4/pons
step pons-600.txt $sz bench --pons $pons --sets L1_R2,L2_R2 --player "$specs"
step pons-l1r3.txt $sz bench --pons $pons --sets L1_R3 --positions 308 --player "$specs"
