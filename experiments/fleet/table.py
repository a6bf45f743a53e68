"""The fleet's table (experiments/fleet/run.sh): one row a fleet size."""
import json
import sys

print(f"A producer offers {sys.argv[2]} positions/s (measured: two cores, alone).\n")
print("| producers | offered pos/s | taken pos/s | taken / offered | samples trained/s | owed, not trained | weights published | s a version | games dropped as stale | shard write ms (mean / max) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    secs = r["seconds"]
    taken = r["positions_taken"] / secs
    off = r["offered_positions_per_second"]
    owed = r["samples_owed"] / max(1, r["samples_trained"] + r["samples_owed"])
    drop = r["games_dropped"] / max(1, r["games_dropped"] + r["games_taken"])
    print(f'| {r["producers"]} | {off:.0f} | {taken:.0f} | {taken / off if off else 0:.2f} '
          f'| {r["samples_trained"] / secs:.0f} | {100 * owed:.0f}% | {r["weights_published"]} '
          f'| {secs / max(1, r["weights_published"]):.1f} | {100 * drop:.1f}% '
          f'| {r["write_mean_ms"]:.0f} / {r["write_max_ms"]:.0f} |')
