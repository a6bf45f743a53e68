#!/usr/bin/env python3
"""Tallies a match's records (sliderzero match --records) for the trained
player (the spec starting with "player:"): wins, ties and losses on open
boards and on boards with blocked cells, and as each colour, with the mean
plies of its wins and the ends of its ties.
Usage: python3 experiments/ship-slider-tally.py RECORDS.jsonl"""
import collections
import json
import sys

tally = collections.defaultdict(lambda: [0, 0, 0])
win_plies, tie_ends = [], collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    me = next(i for i, p in enumerate(r["players"]) if p.startswith("player:"))
    board = r["start"].split()[0]
    layout = "open" if "B" not in board else "blocked %d" % board.count("B")
    colour = "H" if me == 0 else "V"
    w = r.get("winner")
    k = 1 if w is None or w < 0 else (0 if w == me else 2)
    if k == 0:
        win_plies.append(len(r["moves"]))
    if k == 1:
        tie_ends[r.get("end", "?")] += 1
    for key in (layout, "as " + colour, "total"):
        tally[key][k] += 1
for key in sorted(tally, key=lambda s: (s == "total", s)):
    w, t, l = tally[key]
    n = w + t + l
    print("%-10s %3d-%d-%d  %.1f%%" % (key, w, t, l, 100 * (w + t / 2) / n))
if win_plies:
    print("plies a win: %.1f" % (sum(win_plies) / len(win_plies)))
print("ties by:", dict(tie_ends))
