# Shared by the experiment scripts that train one run and measure it, each
# step resumable (source it with sz, run and here set).

# train_and_report: train the run from $here/config.json, or resume it if
# its folder holds one (a run that reached its limit refuses to resume:
# then report what it holds), and copy its report and plots to $here;
# skipped once $here/report.md exists.
train_and_report() {
  [ -f "$here/report.md" ] && return 0
  if [ -f "$run/checkpoint.msgpack" ]; then
    $sz train --resume "$run" --quiet || echo "not resumed: reporting the run as it is" >&2
  else
    $sz train --config "$here/config.json" --run "$run" --quiet
  fi
  report_here
}

# report_here: write $run's report and copy it and its plots to $here.
report_here() {
  $sz report --run "$run"
  cp "$run"/report.md "$run"/*.png "$here/"
}

# extend_and_report FROM MINUTES: train a copy of run folder FROM (in
# checkpoints/) MINUTES more as $run, and copy its report and plots to
# $here; skipped once $here/report.md exists. The copy is made under a
# temporary name and renamed, so a killed copy leaves no half folder.
extend_and_report() {
  [ -f "$here/report.md" ] && return 0
  if [ ! -d "$run" ]; then
    cp -r "checkpoints/$1" "$run.tmp" && rm -f "$run.tmp/lock" && mv "$run.tmp" "$run"
  fi
  $sz train --resume "$run" --minutes "$2" --quiet
  report_here
}

# step FILE COMMAND...: run COMMAND into $here/FILE unless it exists.
step() {
  local out=$1; shift
  [ -f "$here/$out" ] && return 0
  "$@" 2>/dev/null > "$here/$out.tmp"
  mv "$here/$out.tmp" "$here/$out"
}

# train_side_by_side PREFIX ARM...: train each arm's $here/ARM.json into
# checkpoints/PREFIX-ARM at once (log in $here/ARM.log), so that the arms
# share the machine's cores and its load, skipping arms already trained;
# returns when every training of this binary, from an earlier call too,
# has ended.
train_side_by_side() {
  local prefix=$1; shift
  local pids=() name run
  for name in "$@"; do
    run=checkpoints/$prefix-$name
    [ -f "$run/checkpoint.msgpack" ] && continue
    $sz train --config "$here/$name.json" --run "$run" --quiet > "$here/$name.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  while pgrep -f "$sz train" > /dev/null; do sleep 10; done
}

# match_alphabeta SECONDS OUT SPEC [MATCH FLAG...]: the Cats & Dogs
# experiments' measure, the player SPEC at SECONDS a move on one thread
# against alphabeta:time=SECONDS, $games games (colours swapped in pairs,
# two at once, seed 1), into $here/OUT.txt and .jsonl; skipped once the
# .txt exists.
match_alphabeta() {
  local secs=$1 out="$here/$2" spec=$3; shift 3
  [ -f "$out.txt" ] && return 0
  $sz match --game catsdogs "$@" --a "$spec,time=$secs,threads=1" --b "alphabeta:time=$secs" \
    --games "$games" --parallel 2 --seed 1 --records "$out.jsonl" 2>/dev/null > "$out.txt.tmp"
  mv "$out.txt.tmp" "$out.txt"
}

# match_alphabeta_half NAME PLAYER [MATCH FLAG...]: match_alphabeta at
# 0.5 s a move for the player file PLAYER, into match-NAME-$games.
match_alphabeta_half() {
  local name=$1 player=$2; shift 2
  match_alphabeta 0.5 "match-$name-$games" "player:$player" "$@"
}

# catsdogs_arms PREFIX ARM...: train the arms side by side
# (train_side_by_side), export each to checkpoints/PREFIX-ARM.player, play
# each against alpha-beta (match_alphabeta_half) and tally the plies a
# seat.
catsdogs_arms() {
  local prefix=$1; shift
  local name run
  train_side_by_side "$prefix" "$@"
  for name in "$@"; do
    run=checkpoints/$prefix-$name
    [ -f "$run.player" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$run.player"
    match_alphabeta_half "$name" "$run.player"
  done
  for name in "$@"; do
    python3 experiments/cdfeatures/tally.py "$here/match-$name-$games.jsonl"
  done
}

# c4_benchmark PLAYER: a Connect Four player file judged as issue 64 asks,
# its network alone and at 600 simulations (AlphaZero.jl's budget) on
# Pons' five labelled sets (pons-600.txt) and L1_R3's labelled first 308
# positions (pons-l1r3.txt), and at 600 simulations beside the shipped
# player on the project's two critical sets (accuracy-600.txt), and paired
# with the shipped player at 600 simulations on L1_R2 and L2_R2
# (paired-600.txt: positions only one of the two erred on).
c4_benchmark() {
  local p=$1 pons=experiments/connect4/pons
  step pons-600.txt $sz bench --pons $pons --sets L1_R1,L1_R2,L2_R1,L2_R2,L3_R1 \
    --player "player:$p,sims=1;player:$p,sims=600"
  step pons-l1r3.txt $sz bench --pons $pons --sets L1_R3 --positions 308 \
    --player "player:$p,sims=1;player:$p,sims=600"
  step accuracy-600.txt $sz accuracy --set "checkpoints/tables/connect4-real-games.set;checkpoints/tables/connect4-random.set" --parallel 2 \
    --player "player:$p,sims=600;player:checkpoints/connect4.player,sims=600"
  step paired-600.txt $sz bench --pons $pons --sets L1_R2,L2_R2 \
    --player "player:checkpoints/connect4.player,sims=600;player:$p,sims=600"
}

# c4_lever NAME: a Connect Four lever experiment's steps, from $here
# (the experiment's folder, the working directory the repository's
# root): build the command (unless SZ names a binary), train
# $here/config.json as checkpoints/NAME or resume it (train_and_report),
# export its player at the default 12,800 simulations as
# checkpoints/NAME.player, and judge it (c4_benchmark).
c4_lever() {
  sz=${SZ:-/tmp/sliderzero-$1}
  [ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
  run=checkpoints/$1
  new=checkpoints/$1.player
  train_and_report
  [ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 12800
  c4_benchmark "$new"
}

# s5_lever NAME OLD: a Slider 5x5 lever experiment's steps, from $here
# (the experiment's folder, the working directory the repository's root):
# build the command (unless SZ names a binary), solve the 5x5 table once,
# train $here/config.json as checkpoints/NAME or resume it
# (train_and_report), export its player at the shipped default budget
# (51,200 simulations) as checkpoints/NAME.player, and judge it beside
# checkpoints/OLD.player on both critical sets at that budget and at 100
# simulations, paired ($here/misses.tsv).
s5_lever() {
  sz=${SZ:-/tmp/sliderzero-$1}
  [ -n "${SZ:-}" ] || go build -o "$sz" ./cmd/sliderzero
  run=checkpoints/$1
  local new=checkpoints/$1.player old=checkpoints/$2.player table=checkpoints/tables/slider-5x5.table
  [ -f "$table" ] || $sz solve --size 5 --out "$table"
  train_and_report
  [ -f "$new" ] || $sz export --checkpoint "$run/checkpoint.msgpack" --out "$new" --sims 51200
  step accuracy.txt $sz accuracy --table "$table" --parallel 2 --misses "$here/misses.tsv" \
    --player "player:$new;player:$old;player:$new,sims=100;player:$old,sims=100"
}

# player_from_git FILE COMMIT SHIPPED: checkpoints/FILE.player, the file
# checkpoints/SHIPPED held at COMMIT, written once (under a temporary
# name, then renamed): the runs that start from a player shipped before
# name it so, since the shipped file is now another.
player_from_git() {
  local f=checkpoints/$1.player
  [ -f "$f" ] && return 0
  git show "$2:checkpoints/$3" > "$f.tmp"
  mv "$f.tmp" "$f"
}

# shipc4h90_player: the Connect Four player shipped until experiments/c4low
# replaced it (2026-11-29); c4wide, c4low and c4distil start from it.
shipc4h90_player() { player_from_git shipc4h90 9e9eb46 connect4.player; }

# ship5h_player: the Slider 5x5 player shipped until experiments/s5low
# replaced it (2026-11-29); s5low starts from it.
ship5h_player() { player_from_git ship5h 51419b5 slider-5x5.player; }

# s5low_player: the Slider 5x5 player of experiments/s5low, shipped on
# 2026-11-29; s5rs starts from it.
s5low_player() { player_from_git s5low 47f398d slider-5x5.player; }
