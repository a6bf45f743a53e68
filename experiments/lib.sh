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
  $sz report --run "$run"
  cp "$run"/report.md "$run"/*.png "$here/"
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
