#!/usr/bin/env bash
# The hardening issues' faults (issue 35, then issue 65), each probed
# again as a careless operator would meet it: the command, its exit
# status, its peak memory, the first line it printed on standard error,
# and whether what was on disk before is still there. Prints a markdown
# table for each issue; a probe that does not hold its promise is marked
# FAIL and the script exits 1.
# Usage (from anywhere): bash experiments/probes/run.sh  (about 6 minutes)
#   PROBES=65 bash experiments/probes/run.sh  (one issue's section only)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
go build -o /tmp/sliderzero-probes ./cmd/sliderzero || exit 1
(cd experiments && go build -o /tmp/sliderzero-craft ./probes/craft) || exit 1
sz=/tmp/sliderzero-probes craft=/tmp/sliderzero-craft
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
# want ISSUE: whether the issue's section is asked for (PROBES, default all).
want() { [[ " ${PROBES:-35 65} " == *" $1 "* ]]; }

# row ITEM PROBE VERDICT: one table line from the last run's figures.
row() {
  local msg
  msg="$(head -c 2000 "$work/err" | grep -m1 . | cut -c1-90 | tr -d '\000-\010\013-\037\177' | tr '|' '/')"
  [ -z "$msg" ] && msg="$(head -c 2000 "$work/out" | grep -m1 . | cut -c1-90 | tr -d '\000-\010\013-\037\177' | tr '|' '/')"
  # a note (set by the probe) goes first, and is used once
  [ -n "${note:-}" ] && msg="$note; $msg" && note=
  printf '| %s | `%s` | %s | %s MB | %s | %s |\n' "$1" "$2" "$rc" "$((rss / 1024))" "$msg" "$3"
  [ "${3%% *}" = FAIL ] && failed=1
  return 0
}

# run CMD...: runs with its standard input from $work/in (empty unless
# set), recording exit status and peak memory; killed after 120 s.
run() {
  : > "$work/out"
  timeout -s KILL 120 /usr/bin/time -f '%M' -o "$work/rss" "$@" < "${input:-/dev/null}" > "$work/out" 2> "$work/err"
  rc=$?
  rss="$(tail -1 "$work/rss" 2>/dev/null)"
  [[ "$rss" =~ ^[0-9]+$ ]] || rss=0
}

# verdict COND: PASS when the shell condition holds.
verdict() { if eval "$1"; then echo PASS; else echo "FAIL ($1)"; fi; }

if want 35; then
echo "Issue 35 (Hardening II):"
echo
echo "| item | probe | exit | peak memory | first line | verdict |"
echo "|---|---|---|---|---|---|"

# 1. --out onto what is not a regular file.
mkfifo "$work/fifo"; mkdir "$work/dir"; echo keep > "$work/target"; ln -s "$work/target" "$work/link"
mknod "$work/null" c 1 3 2>/dev/null || true
for t in fifo dir link null; do
  [ -e "$work/$t" ] || continue
  run $sz solve --size 4 --out "$work/$t"
  ok="[ $rc -ne 0 ]"
  case $t in
  fifo) ok="$ok && [ -p $work/fifo ]" ;;
  dir) ok="$ok && [ -d $work/dir ]" ;;
  link) ok="$ok && [ -L $work/link ] && [ \"\$(cat $work/target)\" = keep ]" ;;
  null) ok="$ok && [ -c $work/null ]" ;;
  esac
  row 1 "solve --size 4 --out $t" "$(verdict "$ok")"
done

# 2. Repetition on every player the issue named.
for p in greedy alphabeta:depth=3; do
  printf 'game connect4\nset repetition 1\ngenmove X\nquit\n' > "$work/in"
  input="$work/in" run $sz engine --player "$p"
  row 2 "game connect4, repetition 1, genmove X ($p)" "$(verdict "[ $rc -eq 0 ] && grep -q '^= ' $work/out && ! grep -q panic $work/err")"
done
for p in mcts:sims=200 alphabeta:depth=3; do
  printf 'game slider size=5\nset repetition 1\nanalyze 3\nquit\n' > "$work/in"
  input="$work/in" run $sz engine --player "$p" --threads 1
  row 2 "game slider, repetition 1, analyze 3 ($p)" "$(verdict "[ $rc -eq 0 ] && ! grep -q panic $work/err")"
done

# 3. A bad player file beside good ones in the web app's root.
mkdir -p "$work/root"
cp checkpoints/slider-5x5.player "$work/root/good.player"
head -c 3000 checkpoints/slider-5x5.player > "$work/root/cut.player"
head -c 4096 /dev/urandom > "$work/root/noise.player"
port=$((20000 + RANDOM % 20000))
$sz serve --root "$work/root" --addr "127.0.0.1:$port" > "$work/serve.log" 2>&1 &
spid=$!
for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/api/info" > "$work/info" 2>/dev/null && break; sleep 0.1; done
code="$(curl -s -o "$work/info" -w '%{http_code}' "http://127.0.0.1:$port/api/info")"
rc=$code; rss=0; echo "unreadable: $(grep -o '"unreadable"' "$work/info" | head -1)" > "$work/err"
row 3 "serve, /api/info with a cut and a noise player file beside a good one" "$(verdict "[ $code = 200 ] && grep -q good.player $work/info && grep -q cut.player $work/info")"

# 4. Unbounded reads: a 30 MB metrics log of {} lines; a 2 GB sparse shard.
mkdir -p "$work/root/runs/flood"
# (a run's configuration: checkpoints/strength2-base, which the first
# version copied, is not in the repository)
printf '%s\n' '{"game": {"name": "slider", "size": 4}}' > "$work/root/runs/flood/config.json"
yes '{}' | head -c 30000000 > "$work/root/runs/flood/metrics.jsonl"
run $sz report --run "$work/root/runs/flood"
row 4 "report on a 30 MB metrics.jsonl of {} lines" "$(verdict "[ $rss -lt 500000 ] && ! grep -q panic $work/err")"
code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/run?path=runs/flood")"
srss="$(awk '/VmHWM/{print $2}' /proc/$spid/status)"
rc=$code; rss=$srss; : > "$work/err"; echo "status $code" > "$work/out"
row 4 "serve, /api/run on the same log (server's peak)" "$(verdict "[ $rss -lt 500000 ]")"
kill $spid 2>/dev/null; wait $spid 2>/dev/null

# The training probes share one small run, made and then damaged.
cfg="$work/tiny.json"
cat > "$cfg" <<'EOF'
{"game": {"name": "slider", "size": 4}, "net": {"kind": "mlp", "width": 16, "depth": 1},
 "search": {"sims": 8}, "workers": 1, "games_per_round": 8, "games_in_flight": 2,
 "replay_window": 500, "min_replay": 32, "batch_size": 16, "checkpoint_minutes": 0,
 "eval": {"minutes": 0, "games": 2, "sims": 4, "ladder": ["random"]}}
EOF
run $sz train --config "$cfg" --run "$work/r" --quiet --minutes 0.05
row 0 "train a tiny run (the next probes' subject)" "$(verdict "[ $rc -eq 0 ] && [ -f $work/r/checkpoint.msgpack ]")"
truncate -s 2G "$work/r/shards/local-huge.msgpack"
# Each resume trains on to a later limit (--minutes counts the run's whole
# training time).
m=0.05
more() { m=$(echo "$m + 0.05" | bc); }
more; run $sz train --resume "$work/r" --quiet --minutes $m
row 4 "resume with a 2 GB sparse shard in shards/" "$(verdict "[ $rc -eq 0 ] && [ -f $work/r/rejected/local-huge.msgpack ] && [ $rss -lt 1000000 ] && [ \$(du -k $work/r/rejected | tail -1 | cut -f1) -lt 100000 ]")"

# 6. A FIFO in shards/.
mkfifo "$work/r/shards/local-fifo.msgpack"
more; run $sz train --resume "$work/r" --quiet --minutes $m
row 6 "resume with a FIFO in shards/" "$(verdict "[ $rc -eq 0 ] && [ -p $work/r/rejected/local-fifo.msgpack ]")"

# 5. solve --size 3 ends; SIGTERM stops a long solve within a second and
# leaves no temporary file; an interrupt during a new run's first solve
# leaves no run folder.
run $sz solve --size 3 --out "$work/s3.table"
row 5 "solve --size 3" "$(verdict "[ $rc -eq 0 ] && [ -f $work/s3.table ]")"
mkdir "$work/solve"
$sz solve --size 5 --out "$work/solve/t.table" > "$work/out" 2> "$work/err" &
p=$!; sleep 3; t0=$(date +%s.%N); kill -TERM $p; wait $p; rc=$?
dt=$(echo "$(date +%s.%N) - $t0" | bc); rss=0
echo "stopped $(printf '%.2f' "$dt") s after SIGTERM; left: $(ls "$work/solve" | tr '\n' ' ')" > "$work/err"
row 5 "solve --size 5, SIGTERM after 3 s" "$(verdict "[ $(echo "$dt < 1" | bc) = 1 ] && [ -z \"\$(ls $work/solve)\" ]")"
# (From a folder without the solved table, so that the run must solve it.)
(cd "$work" && exec $sz train --run "$work/newrun" --size 5 --quiet > "$work/out" 2> "$work/err") &
p=$!; sleep 3; kill -INT $p; wait $p; rc=$?; rss=0
row 5 "train (new 5x5 run), SIGINT during its first solve" "$(verdict "[ ! -e $work/newrun ]")"

# 7. A flooding engine player.
printf '#!/bin/sh\nyes flood\n' > "$work/flood.sh"; chmod +x "$work/flood.sh"
run $sz match --a "engine:$work/flood.sh" --b greedy --games 2 --seed 1
row 7 "match against an engine that prints without end" "$(verdict "[ $rss -lt 300000 ] && grep -q 'ran past 10000 lines' $work/out")"

# 9. kill -9 at random moments, then resume: the run goes on.
for delay in 0.7 1.3 2.1; do
  $sz train --resume "$work/r" --quiet --minutes 5 > /dev/null 2>&1 &
  p=$!; sleep $delay; kill -9 $p; wait $p 2>/dev/null
  more; run $sz train --resume "$work/r" --quiet --minutes $m
  row 9 "kill -9 after ${delay} s, then resume" "$(verdict "[ $rc -eq 0 ] && [ -f $work/r/checkpoint.msgpack ] && [ -z \"\$(find $work/r -name '*.tmp*')\" ]")"
done

# 10. Values every range check lets through.
for args in "train --plycap 99999999999" "train --minutes NaN" "match --a mcts:c=NaN --b greedy" \
  "match --a greedy --b greedy --repetition -1" "openings --balance NaN"; do
  # shellcheck disable=SC2086
  run $sz $args --run "$work/never"
  [ "${args%% *}" = train ] || run $sz $args
  row 10 "$args" "$(verdict "[ $rc -eq 2 ] && [ \$(wc -l < $work/err) -le 2 ] && [ ! -e $work/never ]")"
done
fi # issue 35

# The section of issue 65.
# shellcheck source=/dev/null
want 65 && source "$here/issue65.sh"

echo
if [ $failed -ne 0 ]; then echo "probes: some promise did not hold (FAIL above)"; exit 1; fi
echo "probes: every promise held"
