"""The time a move of the network's search in match records (JSON lines):
the moves whose record has visits (the other player, alpha-beta or a
solver, reports none). Usage: python3 experiments/budgets/times.py RECORDS.jsonl..."""
import json
import sys

for path in sys.argv[1:]:
    spent = []
    for line in open(path):
        r = json.loads(line)
        spent += [s for s, v in zip(r["seconds"], r["visits"]) if v > 0]
    spent.sort()
    print("%s: %d moves, mean %.3f s, median %.3f s, max %.3f s" % (
        path.split("/")[-1], len(spent), sum(spent) / len(spent), spent[len(spent) // 2], spent[-1]))
